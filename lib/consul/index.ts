export * from './client';
export * from './config';
export * from './errors';
export type * from './types';
