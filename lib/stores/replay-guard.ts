/**
 * Remembers signed requests already seen, so a captured answer cannot be sent again: the first
 * sighting of a key is recorded with a conditional write, any later one is refused. The
 * DynamoDB guard is in its own module, like every AWS store: importing the memory one (every
 * handler does, through from-env.ts) must not load the AWS SDK.
 */

/** Records request fingerprints (a signature, a request id) for as long as they could be replayed. */
export interface ReplayGuard {
  /**
   * Records `key` until `expiresAt` (Unix seconds) and returns `true`, or returns `false` when
   * it was recorded before: the request is a replay.
   */
  firstSighting(key: string, expiresAt: number): Promise<boolean>;
}

/** Keys live beside the questions in the approvals table, under a prefix no approval id has. */
export const REPLAY_KEY_PREFIX = 'seen:';

/** Replay guard for local runs and tests. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();

  public constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  public async firstSighting(key: string, expiresAt: number): Promise<boolean> {
    const until = this.seen.get(key);
    if (until !== undefined && until > this.nowSeconds()) return false;
    this.seen.set(key, expiresAt);
    return true;
  }
}
