/**
 * The job lock a handler holds: the engine's own lock (in-process, or DynamoDB on AWS) paired with
 * the job's shared lock in Nomad (a variable under `nomad-restart/locks/`), so one run per job
 * holds across laptops and AWS. `NOMAD_RESTART_VARIABLES_LOCK` says how (`sharedLockMode`):
 * `false` leaves it out (a Nomad older than 1.7), `required` fails a run whose token may not take it.
 */
import type { Context } from 'aws-lambda';
import { clockOf, liveEventsOf } from '../../lib/steps/kit/local-invocation';
import { jobLockFromEnv } from '../../lib/stores/from-env';
import { NomadControlRequests } from '../../lib/stores/nomad-control-requests';
import { NomadVariablesLock } from '../../lib/stores/nomad-variables-lock';
import { PairedJobLock } from '../../lib/stores/paired-job-lock';
import {
  AWS_SHARED_LOCK_TTL,
  awsLockIdentity,
  LOCAL_SHARED_LOCK_TTL_MS,
  localLockIdentity,
  sharedLockMode,
} from '../../lib/stores/shared-lock-settings';
import { logger } from './logger';
import { nomadClientOf } from './nomad-client-middleware';

/**
 * The lock for this invocation: both locks, the shared one renewed at every safe point (a local
 * run's process also renews it between them: see `lib/engines/local/shared-lock-keeper.ts`).
 */
export function jobLockFor(context: Context): PairedJobLock {
  const own = jobLockFromEnv(process.env, clockOf(context));
  const mode = sharedLockMode();
  if (mode === 'off') return new PairedJobLock(own, undefined, { required: false });
  const local = liveEventsOf(context) !== undefined;
  const nomad = nomadClientOf(context);
  const shared = new NomadVariablesLock(
    nomad,
    local
      ? { identity: localLockIdentity(), ttl: `${LOCAL_SHARED_LOCK_TTL_MS / 1000}s`, log: logger }
      : { identity: awsLockIdentity(), ttl: AWS_SHARED_LOCK_TTL, log: logger },
  );
  // A terminal elsewhere steps a run through the request variable beside the lock variable, which
  // it finds the holder's run in: without the shared lock no one elsewhere can name the run.
  const requests = new NomadControlRequests(nomad, logger);
  return new PairedJobLock(own, shared, { required: mode === 'required', requests });
}
