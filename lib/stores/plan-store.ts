/**
 * The plan store: small JSON documents (the batch plan, a batch's errors, a bulky await
 * cursor) kept outside the execution state so payloads stay O(1) in job size. On AWS an S3
 * bucket; locally a map in memory. Keys are `/`-separated and start with a run-specific prefix
 * chosen by the engine.
 */
import { StoreItemNotFoundError } from './errors';

/** A key → JSON document store. Values must be JSON-serialisable. */
export interface PlanStore {
  /** Writes (or overwrites) the document at `key`. */
  put(key: string, value: unknown): Promise<void>;
  /** Reads the document at `key`; throws `StoreItemNotFoundError` when absent. */
  get(key: string): Promise<unknown>;
  /** Deletes every document whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
}

/**
 * Turns an execution ARN (or any run id) into a key prefix safe for S3 and file names:
 * the execution name with anything outside `[A-Za-z0-9._-]` replaced, under `runs/`.
 */
export function runKeyPrefix(runId: string): string {
  const name = runId.split(':').pop() ?? runId;
  return `runs/${name.replace(/[^A-Za-z0-9._-]/g, '_')}/`;
}

/** In-memory plan store for local runs and tests. Stores serialised copies, like S3 would. */
export class MemoryPlanStore implements PlanStore {
  private readonly items = new Map<string, string>();

  public async put(key: string, value: unknown): Promise<void> {
    this.items.set(key, JSON.stringify(value));
  }

  public async get(key: string): Promise<unknown> {
    const text = this.items.get(key);
    if (text === undefined) {
      throw new StoreItemNotFoundError(`Plan store has no object "${key}"`);
    }
    return JSON.parse(text) as unknown;
  }

  public async deletePrefix(prefix: string): Promise<void> {
    for (const key of [...this.items.keys()]) {
      if (key.startsWith(prefix)) this.items.delete(key);
    }
  }

  /** Keys currently stored, sorted; for tests and diagnostics. */
  public keys(): string[] {
    return [...this.items.keys()].sort();
  }
}
