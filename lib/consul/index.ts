export * from './client';
export * from './config';
export * from './errors';
export * from './service-ids';
export type * from './types';
