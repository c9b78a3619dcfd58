/**
 * The pause question of a local run (run control, docs/run-control.md), answered by whichever
 * comes first: the person at the terminal (when there is one), or a `resume` or `stop` request
 * recorded for the run (this process's own, from its terminal's menu or a fleet; or another
 * terminal's, in the job's request variable in Nomad), polled every 2 s while it waits. A `stop`
 * is a "no"; either is attributed to who asked.
 */
import { describeRequester } from '../../control/requests';
import { NomadClient } from '../../nomad/client';
import { type NomadClientConfig, resolveNomadConfig } from '../../nomad/config';
import type { JobLock, LockKey } from '../../stores/job-lock';
import { NomadControlRequests } from '../../stores/nomad-control-requests';
import { PairedJobLock } from '../../stores/paired-job-lock';
import { sharedLockMode } from '../../stores/shared-lock-settings';
import type { ApprovalAnswer } from '../../workflow/payloads';

/** How often a parked pause question looks for a `resume` or `stop` request. */
export const PAUSE_POLL_MS = 2000;

/** The requests a local run reads while paused, and what it holds open for that. */
export interface PauseRequests {
  /** The answer the next `resume` or `stop` request gives; `undefined` once `signal` aborts. */
  answer(key: LockKey, runId: string, signal: AbortSignal): Promise<ApprovalAnswer | undefined>;
  close(): Promise<void>;
}

/**
 * The requests of this process's lock `own`, and of the job's request variable in Nomad unless
 * the shared lock is off (no other terminal can find the run then: it finds runs by that lock).
 */
export function pauseRequests(
  own: JobLock,
  nomad: NomadClientConfig | undefined,
  pollMs = PAUSE_POLL_MS,
): PauseRequests {
  let client: NomadClient | undefined;
  const lock = () => {
    if (sharedLockMode() !== 'off') client ??= NomadClient.create(nomad ?? resolveNomadConfig({}));
    const requests = client === undefined ? undefined : new NomadControlRequests(client);
    return new PairedJobLock(own, undefined, { required: false, requests });
  };
  return {
    answer: async (key, runId, signal) => {
      const requests = lock();
      while (!signal.aborted) {
        // Nomad out of reach for a moment: the question still waits, and the next poll tries again.
        const request = await requests.controlRequest(key, runId).catch(() => undefined);
        if (request !== undefined) {
          await requests.clearControlRequest(key, runId, request);
          // Another `pause` while paused asks for what already is: forgotten, still waiting.
          if (request.verb !== 'pause')
            return {
              answer: request.verb === 'resume' ? 'yes' : 'no',
              answeredBy: describeRequester(request),
            };
        }
        await sleep(pollMs, signal);
      }
      return undefined;
    },
    close: async () => client?.close(),
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
