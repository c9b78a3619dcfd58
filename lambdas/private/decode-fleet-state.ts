/**
 * Checks the fleet state a fleet Task receives before a step reads it (`FleetState`, made by
 * "Plan fleet"), so a hand-edited input or a wiring bug fails naming the field it got wrong.
 */
import * as z from 'zod';
import { StepPayloadError } from '../../lib/workflow/errors';
import type { FleetState } from '../../lib/workflow/fleet-state-names';

// Structural, as decode-state.ts: our own handler made the state.
const count = z.number().int().nonnegative();
const fleetStateSchema = z
  .object({
    run: z.object({ runId: z.string().min(1), startedAt: z.number() }).loose(),
    plan: z
      .object({
        itemsKey: z.string().min(1),
        skippedKey: z.string().min(1),
        resultsPrefix: z.string().min(1),
        jobs: count,
        allocations: count,
        skipped: count,
        namespaces: z.array(z.string()),
      })
      .loose(),
    budget: z.object({ maxJobs: z.number().int().positive(), maxFailedJobs: count }).loose(),
    jobOptions: z.record(z.string(), z.unknown()),
    dryRun: z.boolean(),
    mapError: z.object({ Error: z.string(), Cause: z.string() }).loose().optional(),
  })
  .loose();

/** Decodes a fleet Task's event; throws `StepPayloadError` naming the first bad field. */
export function decodeFleetState(event: unknown): FleetState {
  const parsed = fleetStateSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : ` at "${issue.path.join('.')}": ${issue.message}`;
    throw new StepPayloadError(`Task input is not a fleet state${where}`);
  }
  return event as FleetState;
}
