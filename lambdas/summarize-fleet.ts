/**
 * Task "Summarize fleet": the fleet run's summary, from the Distributed Map's results; its final
 * record in the run history (Nomad); the fleet's run-control item given back (no request is for
 * it any more).
 */
import type { Context } from 'aws-lambda';
import { releaseFleetControl } from '../lib/steps/fleet/fleet-control-item';
import { type SummarizeFleetOutput, summarizeFleetStep } from '../lib/steps/fleet/summarize-fleet-step';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { jobLockFromEnv, planStoreFromEnv } from '../lib/stores/from-env';
import { decodeFleetState } from './private/decode-fleet-state';
import { logger } from './private/logger';
import { runHistoryFor } from './private/run-history';
import { stepHandler } from './private/step-handler';

const summarizeFleet = async (event: unknown, context: Context): Promise<SummarizeFleetOutput> => {
  const state = decodeFleetState(event);
  const out = await summarizeFleetStep(
    { planStore: planStoreFromEnv(), now: clockOf(context), history: runHistoryFor(context) },
    state,
  );
  await releaseFleetControl(jobLockFromEnv(process.env, clockOf(context)), state.run.runId);
  logger.info('Fleet restart finished', {
    outcome: out.outcome,
    restarted: out.restarted,
    failed: out.failed,
    skipped: out.skipped,
  });
  return out;
};

// The Nomad client writes the fleet's final record (the summary itself reads only the plan store).
export const handler = stepHandler(summarizeFleet, { nomad: true });
