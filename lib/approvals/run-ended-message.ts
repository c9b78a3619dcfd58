/**
 * What chat shows when a restart run ends, however it ended: the run's summary (the lines of the
 * one renderer, the error list as a block), who started it, and a link to the execution in the
 * Step Functions console; and the posting of it to every channel, one failing channel never
 * keeping the others from being told.
 */
import { goQuote } from '../go/quote';
import type { RunOutcome } from '../restart/run-summary';
import { plural } from '../restart/text';
import type { RunEnd } from '../workflow/run-end';
import type { ChatChannel, ChatMessage, ThreadPlacement } from './message';
import { executionConsoleUrl } from './question-message';

/** How each outcome reads in the message's title (and the live thread's last edit). */
export const RUN_ENDINGS: Readonly<Record<RunOutcome, string>> = {
  succeeded: 'succeeded',
  canceled: 'canceled',
  failed: 'finished with errors',
  unrecoverable: 'stopped on an unrecoverable error',
  'stopped-at-window-end': 'stopped at the end of its maintenance window',
  'skipped-job-locked': 'skipped, the job is locked by another run',
  aborted: 'aborted',
  'timed-out': 'timed out',
  error: 'failed',
};

/** The message telling that a run ended. */
export function runEndedMessage(end: RunEnd): ChatMessage {
  const failure = end.failure;
  const stale = end.staleAllocations ?? 0;
  // A run can end "succeeded" and still leave allocations stale (`startedBefore`): the title says so.
  const ending = `${RUN_ENDINGS[end.outcome]}${end.outcome === 'error' && failure !== undefined ? `: ${failure.error}` : ''}${stale > 0 ? `, ${plural(stale, 'allocation', 'allocations')} still stale` : ''}`;
  const title =
    end.jobId === ''
      ? `nomad-restart: a run ${ending}`
      : `nomad-restart: restart of job ${goQuote(end.jobId)} ${ending}`;
  const url = executionConsoleUrl(end.executionArn);
  const lines = [
    ...end.lines,
    ...(end.startedBy === undefined ? [] : [`Started by ${end.startedBy}`]),
    // Without a console page (a local run), the ARN still says which execution it was.
    ...(url === undefined ? [`Execution ${end.executionArn}`] : []),
  ];
  const blocks = [
    failure === undefined ? '' : failure.cause === '' ? failure.error : `${failure.error}: ${failure.cause}`,
    end.errorText,
  ].filter((block) => block !== '');
  return {
    title,
    lines,
    ...(blocks.length === 0 ? {} : { preformatted: blocks.join('\n\n') }),
    ...(url === undefined ? {} : { link: { text: 'Open the execution in the Step Functions console', url } }),
  };
}

/** What posting to every channel came to. */
export interface Broadcast {
  /** The channels the message reached. */
  readonly posted: string[];
  /** The channels it did not, with why. */
  readonly failed: { readonly channel: string; readonly error: unknown }[];
}

/**
 * Posts `message` to every channel at once; a channel that fails keeps no other from it.
 * `placementOf` puts it in a run's thread where the channel has one.
 */
export async function postToAll(
  channels: readonly ChatChannel[],
  message: ChatMessage,
  placementOf: (channel: ChatChannel) => Promise<ThreadPlacement | undefined> = async () => undefined,
): Promise<Broadcast> {
  const results = await Promise.allSettled(
    channels.map(async (channel) => channel.post(message, await placementOf(channel))),
  );
  const broadcast: Broadcast = { posted: [], failed: [] };
  results.forEach((result, i) => {
    const channel = (channels[i] as ChatChannel).name;
    if (result.status === 'fulfilled') broadcast.posted.push(channel);
    else broadcast.failed.push({ channel, error: result.reason });
  });
  return broadcast;
}
