/**
 * Reads the events of one execution that have not been read yet, each exactly once, in order.
 *
 * Why newest first: a forward `GetExecutionHistory` ends with a page that has no `nextToken`,
 * so a forward reader has no cursor for "what comes after" and would read the whole history
 * again on every poll (up to 25,000 events). Reading newest first and stopping at the first
 * event already seen costs one small page per poll, whatever the history's length.
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { SfnCalls } from './sfn-calls';

/** Events per history page. @default 100 */
export const DEFAULT_HISTORY_PAGE_SIZE = 100;

/** Follows one execution's history. */
export class HistoryFollower {
  private lastSeenId = 0;

  public constructor(
    private readonly calls: SfnCalls,
    /** The execution followed. */
    public readonly executionArn: string,
    private readonly pageSize: number = DEFAULT_HISTORY_PAGE_SIZE,
  ) {}

  /** The events added since the last call, oldest first; empty when nothing happened. */
  public async poll(): Promise<HistoryEvent[]> {
    const fresh: HistoryEvent[] = [];
    let nextToken: string | undefined;
    for (;;) {
      const page = await this.calls.historyPage(this.executionArn, nextToken, this.pageSize);
      let reachedSeen = false;
      for (const event of page.events) {
        if (event.id === undefined || event.id <= this.lastSeenId) {
          reachedSeen = true;
          break;
        }
        fresh.push(event);
      }
      nextToken = page.nextToken;
      if (reachedSeen || nextToken === undefined) break;
    }
    fresh.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    const newest = fresh.at(-1)?.id;
    if (newest !== undefined) this.lastSeenId = newest;
    return fresh;
  }
}
