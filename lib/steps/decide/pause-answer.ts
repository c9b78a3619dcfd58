/**
 * The answer to the pause question (run control, docs/run-control.md): yes (typed, `resume`, a
 * chat button, the webhook) resumes the run at the safe point it paused at, which the graph runs
 * again; no, nothing typed, a timeout or a `stop` while paused ends it as a "no" to the proceed
 * question does (`canceled`), naming who stopped it when the answer says.
 */

import { toQuestion } from '../../restart/prompt-question';
import { interpretAnswer } from '../../restart/questions';
import { planKeys } from '../../stores/plan-keys';
import type { AnswerInput, DecisionOutput } from '../../workflow/restart-steps';
import { decision, type StepKit } from '../kit/step-kit';
import { questionWaited } from './question-waited';

/** The pause question's answer as the run's next move; an invalid answer asks again. */
export async function applyPauseAnswer(
  kit: StepKit,
  { run, progress, decision: asked, answer }: Pick<AnswerInput, 'run' | 'progress' | 'decision' | 'answer'>,
): Promise<DecisionOutput> {
  const { events, emit } = kit.recorder();
  const question = toQuestion(asked.question ?? { kind: 'pause', prompt: '' });
  const raw = 'answer' in answer ? answer.answer : undefined;
  // A timeout is a read error: the question's default (no) applies.
  const reply = raw === undefined ? question.defaultOnInterrupt : interpretAnswer(question, raw);
  if (reply.kind === 'invalid') return { events, progress, decision: asked };
  const waited = questionWaited(asked.question, answer, reply.kind === 'yes' ? 'yes' : 'no', kit.now());
  if (waited !== undefined) emit(waited);
  const answeredBy = 'answeredBy' in answer ? answer.answeredBy : undefined;
  if (reply.kind === 'yes') {
    emit({ type: 'resumed', time: kit.now(), resumedBy: answeredBy ?? 'unknown' });
    // The safe point again ("Check deployments"): a request, the window's end, the leases.
    return { events, progress, decision: decision('batch') };
  }
  if (raw !== undefined && answeredBy !== undefined) {
    const record = await kit.loadRun(run.runId);
    await kit.planStore.put(planKeys.runRecord(run.runId), { ...record, stoppedBy: answeredBy });
  }
  emit({ type: 'canceled', time: kit.now() });
  return { events, progress: { ...progress, canceled: true }, decision: decision('finish') };
}
