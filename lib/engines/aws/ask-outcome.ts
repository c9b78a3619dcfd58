/**
 * What became of a question, read from the ask step's exit in history: the step writes the
 * answer it was sent (`SendTaskSuccess` output: `{ answer, answeredBy }`) or, when nobody answered
 * in time, its `States.Timeout` failure at `$.answer`. Whoever answered (chat, the webhook, the
 * console, a terminal), the terminal following the run can say so.
 */
import * as z from 'zod';
import type { ProgressEvent } from '../../restart/events';

const askExitSchema = z.object({
  answer: z.union([
    z.object({ answer: z.string(), answeredBy: z.string().optional() }),
    z.object({ Error: z.string() }),
  ]),
});

/** The event a question's end prints, or none when the exit carries no answer (a retry, a foreign output). */
export function askOutcomeEvent(output: unknown, time: number): ProgressEvent | undefined {
  const parsed = askExitSchema.safeParse(output);
  if (!parsed.success) return undefined;
  const { answer } = parsed.data;
  if ('Error' in answer) return { type: 'question-timed-out', time };
  return {
    type: 'question-answered',
    time,
    answer: answer.answer,
    ...(answer.answeredBy === undefined ? {} : { answeredBy: answer.answeredBy }),
  };
}
