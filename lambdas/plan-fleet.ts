/**
 * Task "Plan fleet": validates the fleet input, selects and plans the jobs from Nomad (reads
 * only), writes the item list and the skipped list to the plan store, takes the fleet's
 * run-control item in the lock table, writes the fleet's provisional record in the run history
 * (Nomad), and returns the fleet's state for the Distributed Map. Bad
 * input ends the run in `InvalidInput`, nothing touched.
 */
import type { Context } from 'aws-lambda';
import { holdFleetControl } from '../lib/steps/fleet/fleet-control-item';
import { decodePlanFleetPayload, planFleetStep } from '../lib/steps/fleet/plan-fleet-step';
import { clockOf, fleetEventsOf } from '../lib/steps/kit/local-invocation';
import { jobLockFromEnv, planStoreFromEnv } from '../lib/stores/from-env';
import type { FleetState } from '../lib/workflow/fleet-state-names';
import { alarmReaderOf } from './private/alarm-reader';
import { deadlineSignal } from './private/deadline';
import { logger } from './private/logger';
import { nomadClientOf } from './private/nomad-client-middleware';
import { runHistoryFor } from './private/run-history';
import { stepHandler } from './private/step-handler';

const planFleet = async (event: unknown, context: Context): Promise<FleetState> => {
  const payload = decodePlanFleetPayload(event);
  const onFleetEvent = fleetEventsOf(context);
  const state = await planFleetStep(
    {
      nomad: nomadClientOf(context),
      planStore: planStoreFromEnv(),
      now: clockOf(context),
      signal: deadlineSignal(context),
      alarms: alarmReaderOf(context),
      history: runHistoryFor(context),
      ...(onFleetEvent === undefined ? {} : { onFleetEvent }),
    },
    payload,
  );
  // Planned (bad input is refused before): from now on the fleet can be paused or stopped.
  await holdFleetControl(jobLockFromEnv(process.env, clockOf(context)), state.run.runId);
  logger.info('Planned fleet', {
    runId: state.run.runId,
    jobs: state.plan.jobs,
    allocations: state.plan.allocations,
    skipped: state.plan.skipped,
  });
  return state;
};

export const handler = stepHandler(planFleet, { nomad: true });
