/**
 * Drives the workflow's steps (`createRestartSteps`) in the order the state machine runs them,
 * without the state machine: the steps' own tests.
 */
import type { ProgressEvent } from '../../../lib/restart/events';
import type { RestartOptions } from '../../../lib/restart/options';
import type { ApprovalAnswer, BatchState, Decision, Summary } from '../../../lib/workflow/payloads';
import type { RestartSteps } from '../../../lib/workflow/restart-steps';

/** The run the driven steps work for. */
export const run = {
  runId: 'arn:aws:states:eu-west-1:1:execution:sm:run-1',
  executionId: 'run-1',
  executionNumber: 1,
};

/** Runs the graph's loop with the steps; `answers` replies to questions in order. */
export async function drive(
  steps: RestartSteps,
  options: RestartOptions,
  answers: string[] = [],
): Promise<{ summary: Summary; events: ProgressEvent[]; questions: string[] }> {
  const events: ProgressEvent[] = [];
  const questions: string[] = [];
  const planned = await steps.plan({ options, run });
  events.push(...planned.events);
  const plan = planned.plan;
  let progress = planned.progress;
  let decision: Decision = planned.decision;
  for (let guard = 0; guard < 50; guard++) {
    if (decision.action === 'ask') {
      questions.push(decision.question?.prompt ?? '');
      const answer: ApprovalAnswer = { answer: answers.shift() ?? '' };
      const applied = await steps.applyAnswer({ options, run, plan, progress, decision, answer });
      events.push(...applied.events);
      progress = applied.progress;
      decision = applied.decision;
      continue;
    }
    if (decision.action !== 'batch' && decision.action !== 'wait') break;
    const checked = await steps.checkDeployments({ options, run, plan, progress });
    progress = checked.progress;
    if (checked.blocked) break;
    const started = await steps.restartBatch({ options, run, plan, progress });
    events.push(...started.events);
    let batch: BatchState = started.batch;
    if (plan.triggerEvaluations) {
      const evaluated = await steps.triggerEvaluations({ options, run, plan, progress, batch });
      events.push(...evaluated.events);
      batch = evaluated.batch;
    }
    while (!batch.done) {
      const awaited = await steps.awaitBatch({ options, run, plan, progress, batch });
      events.push(...awaited.events);
      batch = awaited.batch;
    }
    const decided = await steps.decide({ options, run, plan, progress, batch, cancelRequested: false });
    events.push(...decided.events);
    progress = decided.progress;
    decision = decided.decision;
  }
  const finished = await steps.finish({ options, run, plan, progress });
  events.push(...finished.events);
  return { summary: finished.summary, events, questions };
}
