export * from './allocations';
export * from './client';
export * from './config';
export * from './errors';
export * from './evaluations';
export * from './jobs';
export * from './nodes';
export * from './query';
export type * from './types';
