export * from './errors';
export * from './runner';
export * from './stats';
export * from './synth';
export * from './task-states';
export * from './task-token-callbacks';
export * from './template';
export * from './types';
