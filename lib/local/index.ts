export * from './errors';
export * from './runner';
export * from './stats';
export * from './task-states';
export * from './template';
export * from './types';
