/**
 * Reading a Nomad list page by page (`per_page`, `next_token`): each page is handed over and
 * dropped before the next is read, so a 200,000-allocation listing never sits in memory whole.
 */
import type { PageOptions, QueryResult } from '../../nomad/query';

/**
 * The page size of the fleet's listings: 20 requests for 200,000 allocations, each page about 7 MB
 * of stubs without task states, dropped before the next is read.
 */
export const FLEET_PAGE_SIZE = 10_000;

/**
 * Reads every page of a list, handing each to `each` in order; resolves to how many requests it
 * made. A token seen twice ends the loop (a server that ignores `next_token` must not loop forever).
 */
export async function forEachPage<T>(
  read: (page: PageOptions) => Promise<QueryResult<T[]>>,
  each: (items: readonly T[]) => void,
  perPage: number = FLEET_PAGE_SIZE,
): Promise<number> {
  const seen = new Set<string>();
  let nextToken: string | undefined;
  let requests = 0;
  do {
    const page = await read(nextToken === undefined ? { perPage } : { perPage, nextToken });
    requests++;
    each(page.value);
    nextToken = page.nextToken;
    if (nextToken !== undefined && seen.has(nextToken)) break;
    if (nextToken !== undefined) seen.add(nextToken);
  } while (nextToken !== undefined);
  return requests;
}
