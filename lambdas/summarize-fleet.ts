/**
 * Task "Summarize fleet": the fleet run's summary, from the Distributed Map's results; its final
 * record in the run history (Nomad), naming who stopped it when a `stop` request is on the fleet's
 * run-control item; that item given back (no request is for it any more).
 */
import type { Context } from 'aws-lambda';
import { fleetStoppedBy, releaseFleetControl } from '../lib/steps/fleet/fleet-control-item';
import { type SummarizeFleetOutput, summarizeFleetStep } from '../lib/steps/fleet/summarize-fleet-step';
import { clockOf } from '../lib/steps/kit/local-invocation';
import { jobLockFromEnv, planStoreFromEnv } from '../lib/stores/from-env';
import { decodeFleetState } from './private/decode-fleet-state';
import { logger } from './private/logger';
import { runHistoryFor } from './private/run-history';
import { stepHandler } from './private/step-handler';

const summarizeFleet = async (event: unknown, context: Context): Promise<SummarizeFleetOutput> => {
  const state = decodeFleetState(event);
  const lock = jobLockFromEnv(process.env, clockOf(context));
  const stoppedBy = await fleetStoppedBy(lock, state.run.runId);
  const out = await summarizeFleetStep(
    {
      planStore: planStoreFromEnv(),
      now: clockOf(context),
      history: runHistoryFor(context),
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
    },
    state,
  );
  await releaseFleetControl(lock, state.run.runId);
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
