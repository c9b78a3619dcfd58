/**
 * Each workflow function's timeout (lib/constructs/private/task-functions.ts sets them), here
 * without the CDK: a terminal run that invokes a handler before the state machine is loaded
 * (lib/engines/local/plan-first.ts) gives it the budget its function has on Lambda.
 */

/** A function that calls Nomad: room for a slow agent and the client's own retries. */
export const NOMAD_STEP_TIMEOUT_SECONDS = 120;

/** Any other function of the graph (an await slice excepted: its own setting). */
export const STEP_TIMEOUT_SECONDS = 30;
