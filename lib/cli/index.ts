export * from './errors';
export * from './go-flags';
export * from './job-restart-command';
