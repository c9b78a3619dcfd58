export * from './error-text';
export * from './exchange';
export * from './retry';
export * from './tls';
