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
  /**
   * Marks every document whose key starts with `prefix` as belonging to a run that has ended:
   * only such documents may expire (the bucket's lifecycle), so nothing a running restart needs
   * ever does, however long it runs.
   */
  endRun(prefix: string): Promise<void>;
  /**
   * The keys that start with `prefix`, sorted: for documents written under a name this process
   * cannot know (the Distributed Map's results, under the Map Run's own ID).
   */
  list(prefix: string): Promise<string[]>;
}

/**
 * The document at `key`, or `undefined` when there is none. "Missing" is `StoreItemNotFoundError`
 * only: any other failure (a throttled or failing read) is thrown, so a step fails and is retried
 * instead of going on as if the document had never been written.
 */
export async function getIfPresent<T>(store: PlanStore, key: string): Promise<T | undefined> {
  try {
    return (await store.get(key)) as T;
  } catch (error) {
    if (error instanceof StoreItemNotFoundError) return undefined;
    throw error;
  }
}

/** The object tag (and value) of an ended run's documents; the bucket's lifecycle expires only these. */
export const ENDED_RUN_TAG = { key: 'nomad-restart-run', value: 'ended' } as const;

/** In-memory plan store for local runs and tests. Stores serialised copies, like S3 would. */
export class MemoryPlanStore implements PlanStore {
  private readonly items = new Map<string, string>();
  private readonly ended = new Set<string>();

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

  public async endRun(prefix: string): Promise<void> {
    for (const key of this.items.keys()) {
      if (key.startsWith(prefix)) this.ended.add(key);
    }
  }

  public async list(prefix: string): Promise<string[]> {
    return this.keys().filter((key) => key.startsWith(prefix));
  }

  /** Whether `key` was marked as an ended run's; for tests. */
  public isEnded(key: string): boolean {
    return this.ended.has(key);
  }

  /** Keys currently stored, sorted; for tests and diagnostics. */
  public keys(): string[] {
    return [...this.items.keys()].sort();
  }
}
