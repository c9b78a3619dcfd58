/**
 * A run's live chat thread (lib/approvals/run-thread.ts): the progress its steps last recorded,
 * the message each channel shows for it, and when it was last edited. On AWS it is an item of
 * the approvals table under `run:<runId>`, whose stream drives the notifier as a question's item
 * does; the progress is stored as the step wrote it and decoded by its reader.
 */
import type { ApprovalMessage } from './approval-store';

/** The key prefix of thread items in the approvals table: no approval id or replay key has it. */
export const RUN_THREAD_KEY_PREFIX = 'run:';

/** One run's thread as stored. */
export interface RunThread {
  readonly runId: string;
  /** The progress last recorded (JSON, decoded by its reader). */
  readonly progress?: unknown;
  /** The run's live message, by channel name. */
  readonly messages: Readonly<Record<string, ApprovalMessage>>;
  /** Unix ms of the last edit claimed. */
  readonly editedAt?: number;
  /** Unix ms before which no edit may be made (a rate limit's `Retry-After`). */
  readonly notBefore?: number;
  /** How the run ended, once its end was posted: the live message is closed, never edited back. */
  readonly endedAs?: string;
}

/** Where threads are kept. */
export interface RunThreadStore {
  /** Records the run's progress, keeping the thread until `expiresAt` (Unix seconds). */
  recordProgress(runId: string, progress: unknown, expiresAt: number): Promise<void>;
  /** The run's thread, if any step recorded progress for it. */
  get(runId: string): Promise<RunThread | undefined>;
  /** Records what `channel`'s live message is and shows. */
  recordMessage(runId: string, channel: string, message: ApprovalMessage): Promise<void>;
  /**
   * Claims the next edit at `now` (Unix ms): `true` when the last one was at least `intervalMs`
   * ago and no rate limit defers it, `false` otherwise. Of racing claims, one wins.
   */
  claimEdit(runId: string, now: number, intervalMs: number): Promise<boolean>;
  /** No edit before `until` (Unix ms): the channel asked to wait (`Retry-After`). */
  deferEdits(runId: string, until: number): Promise<void>;
  /** Records that the run ended (`ending`, the outcome's words): no progress edit follows. */
  recordEnd(runId: string, ending: string): Promise<void>;
}

/** The approvals-table key of run `runId`'s thread. */
export const runThreadKey = (runId: string) => `${RUN_THREAD_KEY_PREFIX}${runId}`;

/** Whether an approvals-table key is a thread's. */
export const isRunThreadKey = (key: string) => key.startsWith(RUN_THREAD_KEY_PREFIX);

interface MemoryThread {
  runId: string;
  progress?: unknown;
  messages: Record<string, ApprovalMessage>;
  editedAt?: number;
  notBefore?: number;
  endedAs?: string;
}

/** Threads in this process (local runs, tests); `subscribe` stands in for the table's stream. */
export class MemoryRunThreadStore implements RunThreadStore {
  private readonly threads = new Map<string, MemoryThread>();
  private readonly listeners = new Set<(runId: string) => void>();

  /** Calls `listener` after each progress record, as the stream would. Returns the unsubscribe function. */
  public subscribe(listener: (runId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  public async recordProgress(runId: string, progress: unknown, _expiresAt?: number): Promise<void> {
    const thread = this.threads.get(runId) ?? { runId, messages: {} };
    thread.progress = structuredClone(progress);
    this.threads.set(runId, thread);
    for (const listener of this.listeners) listener(runId);
  }

  public async get(runId: string): Promise<RunThread | undefined> {
    const thread = this.threads.get(runId);
    return thread === undefined ? undefined : structuredClone(thread);
  }

  public async recordMessage(runId: string, channel: string, message: ApprovalMessage): Promise<void> {
    const thread = this.threads.get(runId) ?? { runId, messages: {} };
    thread.messages[channel] = { ...message };
    this.threads.set(runId, thread);
  }

  public async claimEdit(runId: string, now: number, intervalMs: number): Promise<boolean> {
    const thread = this.threads.get(runId);
    if (thread === undefined) return false;
    if (thread.editedAt !== undefined && thread.editedAt > now - intervalMs) return false;
    if (thread.notBefore !== undefined && thread.notBefore > now) return false;
    thread.editedAt = now;
    return true;
  }

  public async deferEdits(runId: string, until: number): Promise<void> {
    const thread = this.threads.get(runId);
    if (thread !== undefined) thread.notBefore = until;
  }

  public async recordEnd(runId: string, ending: string): Promise<void> {
    const thread = this.threads.get(runId);
    if (thread !== undefined) thread.endedAs = ending;
  }
}
