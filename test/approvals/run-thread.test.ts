/**
 * A run's live Slack thread, on a fake clock against a fake Slack Web API on 127.0.0.1: a 10-batch
 * run recording its progress every 12 s gets one start message, edits no closer than 30 s apart
 * (Slack's `chat.update` is Tier 3, about 50 a minute per workspace: 20 runs at 2 a minute stay
 * under it), a 429 whose `Retry-After` defers the next edit, its question posted in the thread,
 * and its end posted in the thread and to the channel (`reply_broadcast`) with a last edit that
 * drops the Pause / Stop buttons.
 */
import {
  EDIT_INTERVAL_MS,
  endRunThread,
  type RunProgress,
  SlackChannel,
  syncQuestionMessages,
  syncRunThread,
  threadPlacement,
} from '../../lib/approvals';
import { postToAll } from '../../lib/approvals/run-ended-message';
import { MemoryRunThreadStore } from '../../lib/stores/run-thread-store';
import { EXECUTION, parkedQuestion, storeWith } from './helpers/approvals';
import { fakeSlackAroundAll, type SlackCall } from './helpers/fake-slack';

const BOT_TOKEN = 'xoxb-run-thread-tests';
const slack = fakeSlackAroundAll(BOT_TOKEN);
const T0 = Date.UTC(2026, 11, 7, 2, 0, 0);
const BATCH_MS = 12_000;

/** The progress of the run `EXECUTION` after `done` of its 10 batches (one allocation each). */
const progress = (done: number): RunProgress => ({
  runId: EXECUTION,
  executionId: EXECUTION,
  jobId: 'web',
  namespace: 'default',
  startedBy: 'schedule "nightly"',
  startedAt: T0,
  allocationCount: 10,
  batchCount: 10,
  batchSize: 1,
  batchesDone: done,
  restarted: done,
  failed: 0,
  at: T0 + done * BATCH_MS,
});

const updates = () => slack.calls.filter((c) => c.method === 'chat.update');
const text = (call: SlackCall | undefined) => String(call?.args['text'] ?? '');
type Block = { type: string; block_id?: string; elements?: { text: { text: string } }[] };
const buttonsOf = (call: SlackCall | undefined) =>
  ((call?.args['blocks'] ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements ?? []).map((e) => e.text.text));

describe('a run live Slack thread', () => {
  beforeEach(() => {
    slack.calls.length = 0;
    slack.limited.length = 0;
  });

  it('posts one start message, edits it at most once per 30 s, honours Retry-After, and ends in the thread', async () => {
    // Arrange
    let now = T0;
    const threads = new MemoryRunThreadStore();
    const channel = new SlackChannel({
      botToken: BOT_TOKEN,
      channelId: 'C0RUNS',
      slackApiUrl: slack.apiUrl,
      rejectRateLimited: true,
    });
    const deps = { threads, channels: [channel], now: () => now };
    const outcomes: string[] = [];
    const step = async (done: number) => {
      now = T0 + done * BATCH_MS;
      await threads.recordProgress(EXECUTION, progress(done), 0);
      outcomes.push(await syncRunThread(deps, EXECUTION));
    };
    // The fourth batch's edit is refused for 40 s.
    slack.rateLimitNext((c) => c.method === 'chat.update' && text(c).includes('Batch 5 of 10 next'), 40);

    // Act
    for (let done = 0; done <= 10; done++) await step(done);
    const start = slack.calls.find((c) => c.method === 'chat.postMessage');
    const liveTs = String(start?.args['ts'] ?? (await threads.get(EXECUTION))?.messages['slack']?.ts);
    const approvals = await storeWith(parkedQuestion({ runId: EXECUTION }));
    const [question] = await approvals.listByExecution(EXECUTION);
    await syncQuestionMessages({ approvals, channels: [channel], threads }, question?.approvalId ?? '');
    now = T0 + 10 * BATCH_MS + 1_000;
    await postToAll([channel], { title: 'nomad-restart: restart of job "web" succeeded', lines: [] }, (c) =>
      threadPlacement(threads, EXECUTION, c, true),
    );
    await endRunThread(deps, EXECUTION, 'succeeded');
    // A stream record after the end (its own writes) leaves the closed message as it is.
    now += 60_000;
    const afterEnd = await syncRunThread(deps, EXECUTION);

    // Assert: one start message, with Pause / Stop.
    const posts = slack.calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(3);
    expect(posts[0]?.args['thread_ts']).toBeUndefined();
    expect(text(posts[0])).toContain('Plan: 10 allocations in 10 batches of up to 1');
    expect(text(posts[0])).toContain('started by schedule "nightly"');
    expect(buttonsOf(posts[0])).toEqual(['Pause', 'Stop']);
    // Edits: batch 1 (12 s), batch 4 refused (48 s, Retry-After 40 s: none before 88 s), batch 8
    // (96 s); batches 2-3, 5-7 and 9-10 fell within the interval or the deferral.
    expect(outcomes).toEqual([
      'posted',
      'edited',
      'throttled',
      'throttled',
      'deferred',
      'throttled',
      'throttled',
      'throttled',
      'edited',
      'throttled',
      'throttled',
    ]);
    expect(slack.limited.map((c) => c.method)).toEqual(['chat.update']);
    const [first, eighth, last] = updates();
    expect(updates()).toHaveLength(3);
    expect(text(first)).toContain('Batch 2 of 10 next; so far 1 restarted, 0 failed');
    expect(text(first)).toMatch(/ETA 2026-12-07 02:02:00 UTC/);
    expect(text(eighth)).toContain('Batch 9 of 10 next; so far 8 restarted, 0 failed');
    expect(EDIT_INTERVAL_MS).toBe(30_000);
    // The question and the end in the thread; the end in the channel too.
    expect(posts[1]?.args).toMatchObject({ thread_ts: liveTs });
    expect(text(posts[1])).toContain('Proceed with the next batch?');
    expect(posts[2]?.args).toMatchObject({ thread_ts: liveTs, reply_broadcast: 'true' });
    // The last edit says how it ended and offers no Pause / Stop.
    expect(text(last)).toContain('restart of job "web" succeeded');
    expect(text(last)).toContain('All 10 batches done: 10 restarted, 0 failed');
    expect(buttonsOf(last)).toEqual([]);
    expect(updates().every((c) => c.args['ts'] === liveTs)).toBe(true);
    expect(afterEnd).toBe('unchanged');
  });
});
