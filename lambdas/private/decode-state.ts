/**
 * Checks the state document a Task receives before a step reads it, so a hand-edited or stale
 * input fails with the field it got wrong instead of deep inside a step.
 */
import * as z from 'zod';
import { StepPayloadError } from '../../lib/workflow/errors';
import type { PlanRef, Progress, WorkflowState } from '../../lib/workflow/payloads';
import type { BatchStepInput, PlannedStepInput } from '../../lib/workflow/restart-steps';

// The state is produced by our own handlers, so the check is structural: enough to fail with a
// clear message on a hand-edited continuation or a wiring bug, not a second schema of every field.
const obj = z.record(z.string(), z.unknown());
const stateSchema = z
  .object({
    options: obj,
    run: z.object({
      runId: z.string(),
      executionId: z.string(),
      executionNumber: z.number().int().positive(),
    }),
    plan: obj.nullable(),
    progress: obj.nullable(),
    decision: obj.nullable(),
    guard: obj.nullable(),
    batch: obj.nullable(),
    summary: obj.nullable(),
    events: z.array(obj),
  })
  .loose();

/** Decodes a Task event into the workflow state; throws `StepPayloadError` naming the first bad field. */
export function decodeWorkflowState(event: unknown): WorkflowState {
  const parsed = stateSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : ` at "${issue.path.join('.')}": ${issue.message}`;
    throw new StepPayloadError(`Task input is not a workflow state${where}`);
  }
  return event as WorkflowState;
}

/** The plan and counters, which every step after Plan needs. */
export function requirePlanned(state: WorkflowState): { plan: PlanRef; progress: Progress } {
  if (state.plan === null || state.progress === null) {
    throw new StepPayloadError('Task input has no plan yet: this step runs only after "Plan restart"');
  }
  return { plan: state.plan, progress: state.progress };
}

/** What a step after Plan receives: the options, the run, the plan and the counters. */
export function plannedInput(state: WorkflowState): PlannedStepInput {
  return { options: state.options, run: state.run, ...requirePlanned(state) };
}

/**
 * What a step inside a batch receives; `order` says which state comes before this one (the
 * message of a state without a batch, e.g. `"Decide" runs after a batch`).
 */
export function batchInput(state: WorkflowState, order: string): BatchStepInput {
  if (state.batch === null) throw new StepPayloadError(`Task input has no batch: ${order}`);
  return { ...plannedInput(state), batch: state.batch };
}
