/**
 * Builds the steps for one invocation from its Lambda context (client, deadline, clock, live
 * events): the restart steps, and the job lock's steps with the lock this invocation holds.
 */
import type { Context } from 'aws-lambda';
import { clockOf, liveEventsOf, sleepOf } from '../../lib/steps/kit/local-invocation';
import type { StepKitDeps } from '../../lib/steps/kit/step-kit';
import { createRestartSteps } from '../../lib/steps/kit/steps-factory';
import { createLockSteps, type LockSteps } from '../../lib/steps/lock/lock-steps';
import { lockLeaseSeconds, planStoreFromEnv, runStatusFromEnv } from '../../lib/stores/from-env';
import type { RestartSteps } from '../../lib/workflow/restart-steps';
import { alarmReaderOf } from './alarm-reader';
import { consulReaderOf } from './consul-reader';
import { deadlineSignal } from './deadline';
import { jobLockFor } from './job-lock';
import { nomadClientOf } from './nomad-client-middleware';
import { runHistoryFor } from './run-history';

/** What every step of this invocation runs with, taken from the Lambda context. */
function stepDeps(context: Context): StepKitDeps {
  const onEvent = liveEventsOf(context);
  const sleep = sleepOf(context);
  return {
    nomad: nomadClientOf(context),
    planStore: planStoreFromEnv(),
    now: clockOf(context),
    ...(sleep === undefined ? {} : { sleep }),
    signal: deadlineSignal(context),
    consul: consulReaderOf(context),
    alarms: alarmReaderOf(context),
    ...(onEvent === undefined ? {} : { onEvent }),
    history: runHistoryFor(context),
  };
}

/** The restart steps for this invocation. */
export function stepsFor(context: Context): RestartSteps {
  return createRestartSteps(stepDeps(context));
}

/** The job lock's steps for this invocation: its lock, the lease from the environment, and who still runs. */
export function lockStepsFor(context: Context): LockSteps {
  return createLockSteps({
    ...stepDeps(context),
    lock: jobLockFor(context),
    runs: runStatusFromEnv(),
    leaseSeconds: lockLeaseSeconds(),
  });
}
