/**
 * Records the run's progress for its live chat thread (lib/approvals/run-thread.ts) once a step
 * returned its state: where a run starts holding its job ("Lock job"), finishes a batch
 * ("Decide") and waits for health ("Await health"). Only where the deployment keeps threads
 * (`RUN_THREAD=on`, set by the construct when Slack or a webhook is configured). Never fails the
 * step: a thread that misses a record shows the next one.
 */
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { runProgressOf } from '../../lib/approvals/run-progress';
import { APPROVAL_ENV } from '../../lib/approvals/settings';
import { runThreadStoreFromEnv } from '../../lib/stores/from-env';
import type { WorkflowState } from '../../lib/workflow/payloads';
import { logger } from './logger';

/** How long a thread item outlives its last progress record: two weeks, longer than any run's question. */
export const RUN_THREAD_TTL_SECONDS = 14 * 24 * 60 * 60;

/** What the step is doing when it records: a health wait shows as one on the live message. */
export type ProgressPoint = 'batch' | 'health';

/** The middleware; `point` says whether the step is a health wait. */
export function runProgressMiddleware(point: ProgressPoint): MiddlewareObj<unknown, unknown, Error, Context> {
  const runProgressMiddlewareAfter = async (request: { response: unknown }): Promise<void> => {
    if (process.env[APPROVAL_ENV.runThread] !== 'on') return;
    try {
      const now = Date.now();
      const state = request.response as WorkflowState;
      const done = point === 'health' && state.batch?.healthChecked === true;
      const progress = runProgressOf(state, now, point === 'health' && !done);
      if (progress === undefined) return;
      await runThreadStoreFromEnv().recordProgress(
        progress.runId,
        progress,
        Math.floor(now / 1000) + RUN_THREAD_TTL_SECONDS,
      );
    } catch (error) {
      logger.warn('Run progress not recorded for its thread', {
        reason: error instanceof Error ? error.name : 'unknown',
      });
    }
  };
  return { after: runProgressMiddlewareAfter };
}
