export * from './error-text';
export * from './exchange';
export * from './go-bool';
export * from './retry';
export * from './tls';
