/**
 * Task "Ask question" (`lambda:invoke.waitForTaskToken`): parks the question. Stores the
 * prompt, the batch summary and the task token under a new opaque approval id, keyed by
 * execution, and returns at once; the execution resumes when someone answers that id. The task
 * token is never logged or returned.
 *
 * A retried attempt (a throttled put, `Lambda.Unknown`) gets a new task token, and the previous
 * one completes nothing any more: it finds the question its first attempt parked (same execution,
 * same question point) and points it at the new token, so the question is asked, and posted to
 * chat, once, and the answer reaches the token the run waits on.
 */
import * as z from 'zod';
import { questionLife } from '../lib/approvals/question-life';
import { questionLeaseSeconds } from '../lib/steps/lock/refresh-lock-step';
import { type Approval, newApprovalId, stateMachineArnOf } from '../lib/stores/approval-store';
import {
  approvalStoreFromEnv,
  ENV,
  jobLockFromEnv,
  lockLeaseSeconds,
  secondsFromEnv,
} from '../lib/stores/from-env';
import { StepPayloadError } from '../lib/workflow/errors';
import type { AskResult } from '../lib/workflow/payloads';
import { logger } from './private/logger';
import { stepHandler } from './private/step-handler';

/** Life of an approval item whose question came without its timeout (an older definition): a week. */
export const DEFAULT_APPROVAL_TTL_SECONDS = 7 * 24 * 60 * 60;

const askEventSchema = z.object({
  taskToken: z.string().min(1),
  executionId: z.string().min(1),
  runId: z.string().min(1),
  jobId: z.string(),
  namespace: z.string(),
  question: z.object({
    kind: z.enum(['multiregion', 'proceed', 'pause']),
    prompt: z.string(),
    summary: z.string(),
  }),
  timeoutSeconds: z.number().int().positive().optional(),
  // For the people asked (chat); absent from older definitions.
  options: z
    .object({ region: z.string().optional(), scheduleName: z.string().optional() })
    .loose()
    .optional(),
  run: z.object({ startedBy: z.string().optional() }).loose().optional(),
  plan: z
    .object({ allocationCount: z.number(), batchSize: z.number(), batchCount: z.number() })
    .loose()
    .optional(),
  progress: z.object({ nextBatch: z.number(), restarted: z.number(), failed: z.number() }).loose().nullish(),
});

type AskEventInput = z.infer<typeof askEventSchema>;

/** Who started the run: the input's `startedBy`, else the schedule that did. */
function startedByOf(e: AskEventInput): { startedBy?: string } {
  if (e.run?.startedBy !== undefined) return { startedBy: e.run.startedBy };
  const schedule = e.options?.scheduleName;
  return schedule === undefined ? {} : { startedBy: `schedule "${schedule}"` };
}

/** What the people asked are shown beside the question: region, who started the run, the last batch. */
function runContext(e: AskEventInput): Partial<Approval> {
  const stateMachineArn = stateMachineArnOf(e.executionId);
  return {
    ...(stateMachineArn === undefined ? {} : { stateMachineArn }),
    ...(e.options?.region === undefined ? {} : { region: e.options.region }),
    ...startedByOf(e),
    ...(e.plan === undefined || e.progress == null || e.progress.nextBatch === 0
      ? {}
      : {
          batch: {
            // Decide has counted the batch just run: it is the nextBatch-th (1-based).
            number: e.progress.nextBatch,
            count: e.plan.batchCount,
            size: Math.min(
              e.plan.batchSize,
              e.plan.allocationCount - (e.progress.nextBatch - 1) * e.plan.batchSize,
            ),
          },
        }),
    ...(e.progress == null ? {} : { totals: { restarted: e.progress.restarted, failed: e.progress.failed } }),
  };
}

/**
 * Where in its execution a question is asked: its kind and the batch just run (0 before any).
 * An execution asks at most one question per point, so a second ask there is a retry.
 */
function questionPoint(e: AskEventInput): string {
  return `${e.question.kind}:${e.progress?.nextBatch ?? 0}`;
}

/**
 * Parks the question under a new approval id, or, on a retried attempt, points the question its
 * first attempt parked at this attempt's token. Returns the approval id.
 */
async function parkOnce(e: AskEventInput): Promise<string> {
  const approvals = approvalStoreFromEnv();
  const askedAt = questionPoint(e);
  // The execution index is read eventually consistently; Step Functions' retry waits (jittered)
  // before the next attempt, by which time the first attempt's item is there.
  const earlier = (await approvals.listByExecution(e.executionId)).find((a) => a.askedAt === askedAt);
  if (earlier !== undefined) {
    await approvals.reask(earlier.approvalId, e.taskToken);
    logger.info('Question asked again: the retried attempt waits on it', {
      approvalId: earlier.approvalId,
      jobId: e.jobId,
    });
    return earlier.approvalId;
  }
  const createdAt = Math.floor(Date.now() / 1000);
  const approvalId = newApprovalId();
  await approvals.put({
    approvalId,
    executionId: e.executionId,
    taskToken: e.taskToken,
    kind: e.question.kind,
    prompt: e.question.prompt,
    summary: e.question.summary,
    jobId: e.jobId,
    namespace: e.namespace,
    createdAt,
    // As long as the question can be answered, and a little longer: a late answer gets a reason.
    ...questionLife(
      createdAt,
      e.timeoutSeconds,
      secondsFromEnv(ENV.approvalTtlSeconds, DEFAULT_APPROVAL_TTL_SECONDS),
    ),
    ...runContext(e),
    askedAt,
  });
  logger.info('Question parked', { approvalId, kind: e.question.kind, jobId: e.jobId });
  return approvalId;
}

const parkQuestion = async (event: unknown): Promise<AskResult> => {
  const parsed = askEventSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StepPayloadError(
      `Ask input is invalid at "${issue?.path.join('.') ?? ''}": ${issue?.message ?? ''}`,
    );
  }
  const e = parsed.data;
  const approvalId = await parkOnce(e);
  const lease = questionLeaseSeconds(lockLeaseSeconds(), e.timeoutSeconds);
  const key = { namespace: e.namespace, jobId: e.jobId };
  await jobLockFromEnv().extend(key, { owner: e.runId, ttlSeconds: lease, execution: e.executionId });
  return { approvalId };
};

export const handler = stepHandler(parkQuestion);
