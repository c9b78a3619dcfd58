export { BatchLoop, type BatchLoopProps } from './batch-loop';
export { CANCELED_CAUSE, type RestartDefinitionProps, restartDefinition } from './definition';
export * from './errors';
export type * from './payloads';
export { MAX_STEP_EVENTS } from './payloads';
export type * from './restart-steps';
export * from './state-names';
