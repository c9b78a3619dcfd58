export * from './aws-engine';
export * from './demo';
export * from './questions';
export * from './run-job-restart';
export * from './terminal';
