/**
 * Reads the events of one execution that have not been read yet, each exactly once, in order.
 *
 * Why newest first: a forward `GetExecutionHistory` ends with a page that has no `nextToken`,
 * so a forward reader has no cursor for "what comes after" and would read the whole history
 * again on every poll (up to 25,000 events). Reading newest first and stopping at the first
 * event already seen costs one page per poll, whatever the history's length.
 *
 * Why a small first page: most polls find nothing or a few new events, and every event comes
 * with its execution data (a step's whole state). Each poll asks for a few events; only when
 * none of them has been seen already is the read started again with wide pages (a page token
 * is only valid with the same arguments, so the wide read cannot continue the small one).
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { SfnCalls } from './sfn-calls';

/** Events asked for first on every poll. */
export const FIRST_PAGE_SIZE = 10;
/** Events per page once the first page was not enough. */
export const WIDE_PAGE_SIZE = 100;

/** Page sizes of a follower. */
export interface HistoryPageSizes {
  /** @default FIRST_PAGE_SIZE */
  readonly first?: number;
  /** @default WIDE_PAGE_SIZE */
  readonly wide?: number;
}

/** Follows one execution's history. */
export class HistoryFollower {
  private lastSeenId = 0;
  private readonly first: number;
  private readonly wide: number;

  public constructor(
    private readonly calls: SfnCalls,
    /** The execution followed. */
    public readonly executionArn: string,
    sizes: HistoryPageSizes = {},
  ) {
    this.first = sizes.first ?? FIRST_PAGE_SIZE;
    this.wide = Math.max(sizes.wide ?? WIDE_PAGE_SIZE, this.first);
  }

  /** The events added since the last call, oldest first; empty when nothing happened. */
  public async poll(): Promise<HistoryEvent[]> {
    const small = await this.read(this.first, true);
    const fresh = small.complete ? small.events : (await this.read(this.wide, false)).events;
    fresh.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    const newest = fresh.at(-1)?.id;
    if (newest !== undefined) this.lastSeenId = newest;
    return fresh;
  }

  /**
   * The unseen events, newest first, in pages of `pageSize`; with `onePage`, only the first page,
   * and `complete` says whether it reached an event already seen (or the start of history).
   */
  private async read(pageSize: number, onePage: boolean) {
    const events: HistoryEvent[] = [];
    let nextToken: string | undefined;
    for (;;) {
      const page = await this.calls.historyPage({ executionArn: this.executionArn, nextToken, pageSize });
      let reachedSeen = false;
      for (const event of page.events) {
        if (event.id === undefined || event.id <= this.lastSeenId) {
          reachedSeen = true;
          break;
        }
        events.push(event);
      }
      nextToken = page.nextToken;
      const complete = reachedSeen || nextToken === undefined;
      if (complete || onePage) return { events, complete };
    }
  }
}
