export * from './aws-engine';
export * from './demo';
export * from './errors';
export * from './go-flags';
export * from './job-restart-command';
export * from './questions';
export * from './run-job-restart';
export * from './terminal';
