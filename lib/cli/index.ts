export * from './commands/demo';
export * from './commands/errors';
export * from './commands/job-restart-command';
export * from './commands/run-job-restart';
export * from './terminal/aws-engine';
export * from './terminal/questions';
export * from './terminal/terminal';
