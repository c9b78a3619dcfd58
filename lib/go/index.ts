export * from './duration';
export * from './errors';
export * from './flag';
export * from './quote';
export * from './strconv';
