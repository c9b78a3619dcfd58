/** Creating evaluations and handing them to the scheduler after its processing delay. */
import type { Evaluation, Job } from '../../lib/nomad/types';
import { newId, nowNs, type SimContext } from './context';

/**
 * A new `pending` evaluation for `job`, stamped at `index` and stored (Nomad's
 * `nomad/alloc_endpoint.go` `Alloc.Stop`, `nomad/job_endpoint.go` `Job.Evaluate`).
 */
export function createEvaluation(
  ctx: SimContext,
  index: number,
  job: Job,
  triggeredBy: string,
  extra: Partial<Evaluation> = {},
): Evaluation {
  const now = nowNs(ctx);
  const evaluation: Evaluation = {
    ID: newId(ctx),
    Namespace: job.Namespace ?? 'default',
    Priority: job.Priority ?? 50,
    Type: job.Type ?? 'service',
    TriggeredBy: triggeredBy,
    JobID: job.ID,
    JobModifyIndex: job.JobModifyIndex ?? 0,
    Status: 'pending',
    StatusDescription: '',
    FailedTGAllocs: null,
    QueuedAllocations: null,
    CreateIndex: index,
    ModifyIndex: index,
    CreateTime: now,
    ModifyTime: now,
    ...extra,
  };
  ctx.store.insertEval(evaluation);
  return evaluation;
}
