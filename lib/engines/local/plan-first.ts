/**
 * The plan before the engine. At the terminal, a one-job run's first two Tasks, "Validate input"
 * and "Plan restart", run through the handlers (and middy chains) the engine's Tasks call, before
 * the engine, the definition and aws-local-stepfunctions are loaded: a job that is not found never
 * needs the state machine. A plan that ends the run ends it here, in the Fail state the definition
 * would end it in (lib/workflow/failure-routes.ts); any other outcome is handed to the engine,
 * whose Tasks answer with it (engine.ts `made`), so no request is made twice.
 */
import type { RestartInput } from '../../restart/input';
import type { LocalInvocation } from '../../steps/kit/local-invocation';
import { causeMessage } from '../../workflow/errors';
import { failStateOf, INVALID_INPUT_ROUTE, OTHERWISE_FAIL_STATE } from '../../workflow/failure-routes';
import { REDRIVE_COUNT_FIELD, STEP_STATE_FIELD } from '../../workflow/redrive';
import { TASK_STATE_HANDLERS, TaskStates } from '../../workflow/state-names';
import { NOMAD_STEP_TIMEOUT_SECONDS, STEP_TIMEOUT_SECONDS } from '../../workflow/step-timeouts';
import { createGate, type InvocationSettings, lambdaTaskHandler, localInvocation } from './lambda-tasks';
import type { MadeOutcome, MadeSteps } from './made-steps';
import { localUuid } from './private/local-uuid';
import { executionArn, stateMachineArn } from './private/placeholders';
import { sumStats } from './stats';
import type { ExecutionResult } from './types';

/** How the run ends, or what the engine goes on with. */
export type PlanFirst =
  | { readonly kind: 'ended'; readonly result: ExecutionResult }
  | { readonly kind: 'made'; readonly made: MadeSteps };

/** What {@link planFirst} needs: the execution input and what each invocation is handed. */
export interface PlanFirstRequest extends InvocationSettings {
  readonly input: RestartInput;
  /** Each progress event a step streams live (shared with the engine's run, so none shows twice). */
  readonly emit: LocalInvocation['liveEvents'];
}

/**
 * The local restart state machine's ARN before its definition is loaded: the name the app's stack
 * gives it (`<stack>-<id>`, lib/constructs/nomad-restart-workflow.ts; the stack `NomadRestart`,
 * lib/engines/local/local-definition.ts). The run's id is its first execution's ARN, as on AWS;
 * the engine refuses made steps whose id is not its execution's (engine.ts).
 */
export const RESTART_STATE_MACHINE_ARN = stateMachineArn('NomadRestart-Restart');

/**
 * Runs "Validate input" then "Plan restart". Ends the run only where the definition sends the
 * error straight to a named Fail state with no retry between: bad input (`InvalidInput`), and a plan
 * error "Which error?" names (the job not found, a reschedule refused). The failure path's "Release
 * lock after error" is skipped: a run that failed before "Lock job" holds no lock, so it would
 * release nothing and only make the cause readable, as {@link causeMessage} does here.
 */
export async function planFirst(request: PlanFirstRequest): Promise<PlanFirst> {
  // The handlers log as on Lambda: silent at a terminal, as the engine keeps them (engine.ts).
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
  const startedAt = Date.now();
  const executionName = localUuid();
  const executionId = executionArn(RESTART_STATE_MACHINE_ARN, executionName);
  const options = {
    gate: createGate(),
    invocation: localInvocation(request, request.emit),
    intercept: (_state: string, invoke: () => Promise<unknown>) => invoke(),
    prepare: async () => {},
  };
  const run = (state: string, budgetSeconds: number, payload: unknown): Promise<MadeOutcome> =>
    lambdaTaskHandler(
      TASK_STATE_HANDLERS[state] ?? '',
      state,
      budgetSeconds * 1000,
      options,
    )(payload, {
      stateName: state,
      signal: new AbortController().signal,
    }).then(
      (output) => ({ output }),
      (error: unknown) => ({ error }),
    );
  const ended = (fail: string, error: unknown): PlanFirst => {
    const cause = causeMessage(error instanceof Error ? error.message : String(error));
    const stats = sumStats([], Date.now() - startedAt);
    const end = { status: 'FAILED', error: fail, cause, stats } as const;
    return {
      kind: 'ended',
      result: { ...end, executions: [{ executionArn: executionId, name: executionName, ...end }] },
    };
  };
  const made = (outcomes: [string, MadeOutcome][]): PlanFirst => ({
    kind: 'made',
    made: { executionName, executionId, outcomes: new Map(outcomes) },
  });

  const validated = await run(TaskStates.validateInput, STEP_TIMEOUT_SECONDS, {
    input: request.input,
    executionId,
    startTime: new Date(startedAt).toISOString(),
  });
  if ('error' in validated) {
    const name = nameOf(validated.error);
    if (INVALID_INPUT_ROUTE.errors.includes(name)) return ended(INVALID_INPUT_ROUTE.fail, validated.error);
    return made([[TaskStates.validateInput, validated]]);
  }
  const planned = await run(TaskStates.plan, NOMAD_STEP_TIMEOUT_SECONDS, {
    [STEP_STATE_FIELD]: validated.output,
    [REDRIVE_COUNT_FIELD]: 0,
  });
  if ('error' in planned) {
    const fail = failStateOf(nameOf(planned.error));
    if (fail !== OTHERWISE_FAIL_STATE) return ended(fail, planned.error);
  }
  return made([
    [TaskStates.validateInput, validated],
    [TaskStates.plan, planned],
  ]);
}

/** The ASL error a thrown error becomes (its `name`, as the engine's Task bindings read it). */
function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
