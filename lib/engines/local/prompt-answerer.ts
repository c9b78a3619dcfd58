/**
 * How a local run's questions are answered when nothing outside answers them (no task-token
 * callbacks): through the command's prompt, and for the pause question (run control,
 * docs/run-control.md) also by a `resume` or `stop` request, whichever comes first.
 */
import type { ApprovalAnswer, AskEvent } from '../../workflow/payloads';
import type { Gate } from './lambda-tasks';
import type { PauseRequests } from './pause-requests';
import type { TaskTokenAnswerer } from './types';

/**
 * A line read from the terminal, or why none was read (the question's default then applies), or
 * `withdrawn`: the question was answered elsewhere (a run-control request) and the read called off.
 */
export type PromptReply =
  | { kind: 'answer'; text: string }
  | { kind: 'read-error'; text: string }
  | { kind: 'withdrawn' };

/**
 * Asks a question worded by the workflow and returns the reply. `invalidAnswer` is set when the
 * previous reply to this question was not understood (print Nomad's line, then ask again).
 * `withdrawn` is given for a question a request may answer instead (the pause question): when it
 * aborts, the read is called off (`withdrawn`); a prompt with no person to read from then only
 * shows the question and waits for that.
 */
export type Prompt = (
  prompt: string,
  invalidAnswer: string | undefined,
  withdrawn?: AbortSignal,
) => Promise<PromptReply>;

/** What {@link promptAnswerer} works with. */
export interface PromptAnswererDeps {
  readonly prompt: Prompt;
  /** Closed while the interrupt question is open: no question is asked meanwhile. */
  readonly gate: Gate;
  readonly requests: PauseRequests;
  /** The job and the run holding it, once known. */
  readonly heldBy: () => { key: { namespace: string; jobId: string }; runId: string } | undefined;
}

/** The answerer of a run's questions, and the reply it remembers for an answer refused. */
export interface PromptAnswerer {
  readonly answer: TaskTokenAnswerer;
  /** A Task other than the question's ran: the next question is a new one. */
  forgetReply(): void;
}

/** Answers each question through the prompt; the pause question also through a request. */
export function promptAnswerer(deps: PromptAnswererDeps): PromptAnswerer {
  // A reply the workflow did not accept brings it straight back to the ask step: between a
  // valid reply and the next question some other Task always runs (see batch-loop.ts).
  let lastReply: string | undefined;

  /**
   * The pause question: the terminal (when someone is there) and the run's requests race; the first
   * answer withdraws the other. The state's timeout withdraws both (its Catch applies the default).
   */
  const answerPause = async (
    prompt: string,
    held: NonNullable<ReturnType<PromptAnswererDeps['heldBy']>>,
    timedOut: AbortSignal,
  ): Promise<PromptReply | { kind: 'request'; answer: ApprovalAnswer }> => {
    const settled = new AbortController();
    const withdrawn = AbortSignal.any([settled.signal, timedOut]);
    const fromRequest = deps.requests.answer(held.key, held.runId, withdrawn).then((answer) => {
      settled.abort();
      return answer === undefined ? undefined : { kind: 'request' as const, answer };
    });
    const fromTerminal = deps.prompt(prompt, lastReply, withdrawn).then((reply) => {
      settled.abort();
      return reply;
    });
    const first = await Promise.race([fromRequest, fromTerminal]);
    // A withdrawn read is not an answer: the request that withdrew it is.
    return first === undefined || first.kind === 'withdrawn'
      ? ((await fromRequest) ?? { kind: 'withdrawn' })
      : first;
  };

  return {
    answer: async (payload, _taskToken, { signal }) => {
      await deps.gate.passed();
      const ask = ((payload as { Payload?: AskEvent }).Payload ?? payload) as AskEvent;
      const held = deps.heldBy();
      const reply =
        ask.question.kind === 'pause' && held !== undefined
          ? await answerPause(ask.question.prompt, held, signal)
          : await deps.prompt(ask.question.prompt, lastReply);
      if (reply.kind === 'request') return reply.answer;
      if (reply.kind !== 'answer') {
        lastReply = undefined;
        // Same path as an unanswered question on AWS: the Catch on States.Timeout applies the default.
        throw Object.assign(new Error(reply.kind === 'read-error' ? reply.text : 'withdrawn'), {
          name: 'States.Timeout',
        });
      }
      lastReply = reply.text;
      const answer: ApprovalAnswer = { answer: reply.text, answeredBy: 'terminal' };
      return answer;
    },
    forgetReply: () => {
      lastReply = undefined;
    },
  };
}
