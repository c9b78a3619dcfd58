/**
 * Task "Summarize fleet": the fleet run's summary, from the Distributed Map's results; the fleet's
 * run-control item given back (no request is for it any more).
 */
import type { Context } from 'aws-lambda';
import { releaseFleetControl } from '../lib/steps/fleet/fleet-control-item';
import { type SummarizeFleetOutput, summarizeFleetStep } from '../lib/steps/fleet/summarize-fleet-step';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { jobLockFromEnv, planStoreFromEnv } from '../lib/stores/from-env';
import { decodeFleetState } from './private/decode-fleet-state';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

const summarizeFleet = async (event: unknown, context: Context): Promise<SummarizeFleetOutput> => {
  const state = decodeFleetState(event);
  const out = await summarizeFleetStep({ planStore: planStoreFromEnv(), now: clockOf(context) }, state);
  await releaseFleetControl(jobLockFromEnv(process.env, clockOf(context)), state.run.runId);
  logger.info('Fleet restart finished', {
    outcome: out.outcome,
    restarted: out.restarted,
    failed: out.failed,
    skipped: out.skipped,
  });
  return out;
};

// No Nomad client: the summary reads only the plan store, so this function never reads the token.
export const handler = stepHandler(summarizeFleet);
