/**
 * "Apply answer": turns the answer to a parked question into the run's next move, with Nomad's
 * semantics: yes, no (cancel), a new batch wait, or an invalid answer that asks again. The pause
 * question (run control, beyond Nomad) is read in pause-answer.ts.
 */
import { batchOutcome, waitOrNext } from '../../restart/decide';
import type { ProgressEvent } from '../../restart/events';
import { interpretAnswer, multiRegionQuestion, proceedQuestion } from '../../restart/questions';
import { planKeys } from '../../stores/plan-keys';
import type { AnswerInput, DecisionOutput } from '../../workflow/restart-steps';
import { type BatchResult, batchWaitOf, decision, type StepKit } from '../kit/step-kit';
import { applyPauseAnswer } from './pause-answer';
import { questionWaited } from './question-waited';

export async function applyAnswerStep(
  kit: StepKit,
  { run, plan: ref, progress, decision: asked, answer }: AnswerInput,
): Promise<DecisionOutput> {
  const { now } = kit;
  const { events, emit } = kit.recorder();
  const pending = asked.question;
  const raw = 'answer' in answer ? answer.answer : undefined;
  if (pending?.kind === 'pause') return applyPauseAnswer(kit, { run, progress, decision: asked, answer });
  /** Reports the wait once the answer applies (an invalid one asks again: the wait goes on). */
  const waited = (reply: 'yes' | 'no') => {
    const event = questionWaited(pending, answer, reply, now());
    if (event !== undefined) emit(event);
  };
  if (pending?.kind === 'multiregion') {
    const reply =
      raw === undefined ? { kind: 'no' as const } : interpretAnswer(multiRegionQuestion(ref.jobId), raw);
    if (reply.kind === 'invalid') return { events, progress, decision: asked };
    waited(reply.kind === 'no' ? 'no' : 'yes');
    if (reply.kind === 'yes') {
      const held = (await kit.tryGet<ProgressEvent[]>(planKeys.heldEvents(run.runId))) ?? [];
      return { events: [...held, ...events], progress, decision: decision('batch') };
    }
    emit({ type: 'multiregion-declined', time: now() });
    return { events, progress: { ...progress, canceled: true }, decision: decision('finish') };
  }
  const last = await kit.tryGet<BatchResult>(planKeys.batchResult(run.runId, progress.nextBatch - 1));
  const question = proceedQuestion({
    outcome: batchOutcome(last?.errors ?? []),
    batchWaitAsk: progress.askBetweenBatches,
  });
  // A timeout is a read error: the question's default (no) applies.
  const reply = raw === undefined ? question.defaultOnInterrupt : interpretAnswer(question, raw);
  if (reply.kind === 'invalid') return { events, progress, decision: asked };
  waited(reply.kind === 'no' ? 'no' : 'yes');
  if (reply.kind === 'no') {
    emit({ type: 'canceled', time: now() });
    return { events, progress: { ...progress, canceled: true }, decision: decision('finish') };
  }
  let next = progress;
  if (reply.kind === 'wait') {
    next = { ...progress, askBetweenBatches: false, batchWaitMs: reply.ns / 1e6 };
    emit({ type: 'new-batch-wait', time: now(), waitMs: reply.ns / 1e6 });
  }
  const after = waitOrNext(batchWaitOf(next));
  if (after.action === 'next') return { events, progress: next, decision: decision('batch') };
  emit({ type: 'waiting', time: now(), waitMs: after.ns / 1e6 });
  return {
    events,
    progress: next,
    decision: decision('wait', { waitSeconds: Math.ceil(after.ns / 1e9) }),
  };
}
