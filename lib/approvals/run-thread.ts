/**
 * One live thread per run, in each channel that keeps threads (Slack, the webhook): a start
 * message posted once the run holds its job, edited in place as batches complete; the run's
 * questions and its end posted in that thread, the end also to the channel.
 *
 * Edits are rate-limited per run to one per {@link EDIT_INTERVAL_MS}: Slack's `chat.update` is a
 * Tier 3 method, about 50 calls a minute per workspace
 * (https://api.slack.com/methods/chat.update, https://api.slack.com/apis/rate-limits), so a fleet
 * of 20 concurrent jobs at 2 edits a minute each stays at 40. A change within the interval is not
 * queued: the next change past it (or the run's end) shows it. A 429 defers the run's edits by its
 * `Retry-After` (recorded on the thread) instead of waiting it out in the notifier.
 */
import { StoreItemNotFoundError } from '../stores/errors';
import type { RunThread, RunThreadStore } from '../stores/run-thread-store';
import { type ChatChannel, type ChatMessage, ChatRateLimitedError, type ThreadPlacement } from './message';
import { liveRunMessage, progressFingerprint, type RunProgress } from './run-progress';
import { decodeRunProgress } from './run-progress-decoder';

/** Least time between two edits of one run's live message, in ms (see the module comment). */
export const EDIT_INTERVAL_MS = 30_000;

/** What {@link syncRunThread} and {@link endRunThread} work with. */
export interface RunThreadDeps {
  readonly threads: RunThreadStore;
  /** Every configured channel; only those that keep threads get the live message. */
  readonly channels: readonly ChatChannel[];
  /** Unix ms. */
  readonly now: () => number;
}

/** What one sync came to. */
export type ThreadSync = 'none' | 'posted' | 'edited' | 'unchanged' | 'throttled' | 'deferred';

const threadChannels = (channels: readonly ChatChannel[]) => channels.filter((c) => c.threads === true);

/** The run's recorded progress, if its thread has any. */
async function progressOf(
  threads: RunThreadStore,
  runId: string,
): Promise<{ thread: RunThread; progress: RunProgress } | undefined> {
  const thread = await threads.get(runId);
  const progress = thread?.progress === undefined ? undefined : decodeRunProgress(thread.progress);
  return thread === undefined || progress === undefined ? undefined : { thread, progress };
}

/**
 * Brings run `runId`'s live message up to date: posts it to each thread channel that has none yet
 * (the run's start), else edits it when it shows less than the recorded progress and the run's
 * edit interval has passed. A channel that fails keeps no other from it; the first failure is
 * rethrown at the end (the stream retries), a rate limit is not (it defers instead).
 */
export async function syncRunThread(deps: RunThreadDeps, runId: string): Promise<ThreadSync> {
  const found = await progressOf(deps.threads, runId);
  if (found === undefined) return 'none';
  const { thread, progress } = found;
  // Closed by the run's end: every later stream record (the end's own writes) leaves it closed.
  if (thread.endedAs !== undefined) return 'unchanged';
  const view = progressFingerprint(progress);
  const message = liveRunMessage(progress);
  const channels = threadChannels(deps.channels);
  const failures: unknown[] = [];
  let posted = false;
  for (const channel of channels.filter((c) => thread.messages[c.name] === undefined)) {
    try {
      const ref = await channel.post(message);
      await deps.threads.recordMessage(runId, channel.name, { ...ref, shows: view });
      posted = true;
    } catch (error) {
      failures.push(error);
    }
  }
  const stale = channels.filter((c) => {
    const shown = thread.messages[c.name];
    return shown !== undefined && shown.shows !== view;
  });
  let outcome: ThreadSync = posted ? 'posted' : 'unchanged';
  if (stale.length > 0) {
    outcome = (await deps.threads.claimEdit(runId, deps.now(), EDIT_INTERVAL_MS))
      ? await edit(deps, thread, stale, message, view, failures)
      : 'throttled';
  }
  if (failures.length > 0) throw failures[0];
  return outcome;
}

/** Edits each channel's live message; a rate limit defers the run's next edit by its `Retry-After`. */
async function edit(
  deps: RunThreadDeps,
  thread: RunThread,
  channels: readonly ChatChannel[],
  message: ChatMessage,
  view: string,
  failures: unknown[],
): Promise<ThreadSync> {
  let outcome: ThreadSync = 'edited';
  for (const channel of channels) {
    const shown = thread.messages[channel.name];
    if (shown === undefined) continue;
    try {
      await channel.update(shown, message);
      await deps.threads.recordMessage(thread.runId, channel.name, { ...shown, shows: view });
    } catch (error) {
      if (!(error instanceof ChatRateLimitedError)) {
        failures.push(error);
        continue;
      }
      await deps.threads.deferEdits(thread.runId, deps.now() + error.retryAfterMs);
      outcome = 'deferred';
    }
  }
  return outcome;
}

/**
 * Where a question or the end goes for run `runId` in `channel`: its thread, once it has a live
 * message there; `undefined` (the channel itself) otherwise.
 */
export async function threadPlacement(
  threads: RunThreadStore,
  runId: string | undefined,
  channel: ChatChannel,
  broadcast = false,
): Promise<ThreadPlacement | undefined> {
  if (runId === undefined || channel.threads !== true) return undefined;
  let thread: RunThread | undefined;
  try {
    thread = await threads.get(runId);
  } catch (error) {
    if (error instanceof StoreItemNotFoundError) return undefined;
    throw error;
  }
  const ref = thread?.messages[channel.name];
  return ref === undefined
    ? undefined
    : { thread: { channel: ref.channel, ts: ref.ts }, ...(broadcast ? { broadcast } : {}) };
}

/**
 * The run's end in its thread: the live message edited one last time to say how it ended (no
 * Pause / Stop any more: no interval applies to this last edit), for each thread channel.
 */
export async function endRunThread(deps: RunThreadDeps, runId: string, ending: string): Promise<void> {
  const found = await progressOf(deps.threads, runId);
  if (found === undefined) return;
  const { thread, progress } = found;
  await deps.threads.recordEnd(runId, ending);
  const message = liveRunMessage({ ...progress, at: deps.now() }, ending);
  for (const channel of threadChannels(deps.channels)) {
    const shown = thread.messages[channel.name];
    if (shown === undefined) continue;
    await channel.update(shown, message);
    await deps.threads.recordMessage(runId, channel.name, {
      ...shown,
      shows: progressFingerprint(progress, ending),
    });
  }
}
