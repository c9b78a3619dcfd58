/**
 * Task "Ask question" (`lambda:invoke.waitForTaskToken`): parks the question. Stores the
 * prompt, the batch summary and the task token under a new opaque approval id, keyed by
 * execution, and returns at once; the execution resumes when someone answers that id. The task
 * token is never logged or returned.
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
  question: z.object({ kind: z.enum(['multiregion', 'proceed']), prompt: z.string(), summary: z.string() }),
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

const parkQuestion = async (event: unknown): Promise<AskResult> => {
  const parsed = askEventSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StepPayloadError(
      `Ask input is invalid at "${issue?.path.join('.') ?? ''}": ${issue?.message ?? ''}`,
    );
  }
  const e = parsed.data;
  const createdAt = Math.floor(Date.now() / 1000);
  const approvalId = newApprovalId();
  await approvalStoreFromEnv().put({
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
  });
  const lease = questionLeaseSeconds(lockLeaseSeconds(), e.timeoutSeconds);
  const key = { namespace: e.namespace, jobId: e.jobId };
  await jobLockFromEnv().extend(key, { owner: e.runId, ttlSeconds: lease, execution: e.executionId });
  logger.info('Question parked', { approvalId, kind: e.question.kind, jobId: e.jobId });
  return { approvalId };
};

export const handler = stepHandler(parkQuestion);
