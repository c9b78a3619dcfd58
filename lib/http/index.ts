export * from './error-text';
export * from './exchange';
export * from './request-observer';
export * from './retry';
export * from './tls';
