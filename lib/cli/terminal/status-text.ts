/**
 * The words of the terminal's status line (beyond Nomad, on stderr only): where the run stands,
 * what it waits for and since when, an ETA from the batches so far, the window left, and a
 * request Nomad has not answered. One short line, so it fits a terminal's width.
 */
import { formatGoDuration } from '../../go/duration';
import type { SlowRequest } from '../../nomad/request-observer';
import type { BatchWaitKind, RunSnapshot } from './run-progress';

const WAITING_FOR: Record<BatchWaitKind, string> = {
  replacement: 'waiting for a replacement',
  health: 'waiting for health',
  'next-batch': 'next batch',
  resume: 'paused',
};

/** `ms` as a Go duration in whole seconds (`1m30s`), as Nomad writes durations. */
export function roughDuration(ms: number): string {
  return formatGoDuration(Math.max(0, Math.round(ms / 1000)) * 1e9);
}

/**
 * The ETA from the batches so far: the time since the first batch started per batch done (the
 * waits between batches included), times the batches left. Absent before the first batch ends,
 * since one guess from nothing helps nobody.
 */
export function etaMs(snap: RunSnapshot, now: number): number | undefined {
  const { batchesDone, batches, firstBatchAt } = snap;
  if (batchesDone === 0 || firstBatchAt === undefined) return undefined;
  return ((now - firstBatchAt) / batchesDone) * (batches - batchesDone);
}

/** The status line for `snap` at `now`; `slow` is the oldest request Nomad has not answered. */
export function statusText(snap: RunSnapshot, now: number, slow?: SlowRequest): string {
  const parts: string[] = [];
  if (slow !== undefined)
    parts.push(`no answer from Nomad for ${roughDuration(now - slow.sentAt)} (${slow.request})`);
  if (snap.batches === 0) parts.push('planning');
  else {
    parts.push(`batch ${snap.batch} of ${snap.batches}`);
    parts.push(`${snap.restarted} restarted, ${snap.failed} failed`);
  }
  const { waiting } = snap;
  if (waiting !== undefined) {
    const time =
      waiting.until === undefined
        ? roughDuration(now - waiting.since)
        : `in ${roughDuration(waiting.until - now)}`;
    parts.push(`${WAITING_FOR[waiting.kind]} ${time}`);
  }
  const eta = etaMs(snap, now);
  if (eta !== undefined && snap.batchesDone < snap.batches) parts.push(`ETA ${roughDuration(eta)}`);
  if (snap.windowEnd !== undefined)
    parts.push(snap.windowEnd > now ? `window ${roughDuration(snap.windowEnd - now)} left` : 'window ended');
  return parts.join(' | ');
}
