/**
 * Blocking queries (Nomad's `command/agent/http.go` `parseWait`): `index=N` holds the request until
 * the endpoint's resource index passes N, or until `wait` (default and maximum 300 s, plus jitter
 * up to wait/16) runs out; then the current data is returned with the current index.
 */

import { parseGoBool } from '../../lib/go/strconv';
import { MAX_BLOCKING_HOLD_MS } from '../../lib/nomad/query';
import { parseGoDuration } from '../duration';
import { SimHttpError } from '../errors';
import type { ApiEnv, ApiRequest, ApiResponse, BlockingSpec } from './api';
import { indexHeaders } from './api';

/** Parsed `index`/`wait`/`stale` of a GET. @throws SimHttpError 400 with Nomad's texts. */
export function parseQueryOptions(query: URLSearchParams): { index: number; waitMs: number } {
  const rawIndex = query.get('index');
  let index = 0;
  if (rawIndex !== null && rawIndex !== '') {
    if (!/^\d+$/.test(rawIndex) || !Number.isSafeInteger(Number(rawIndex)))
      throw new SimHttpError(400, 'Invalid index');
    index = Number(rawIndex);
  }
  const rawWait = query.get('wait');
  let waitMs = MAX_BLOCKING_HOLD_MS;
  if (rawWait !== null && rawWait !== '') {
    const parsed = parseGoDuration(rawWait);
    if (parsed === undefined) throw new SimHttpError(400, 'Invalid wait time');
    waitMs = parsed > 0 ? Math.min(parsed, MAX_BLOCKING_HOLD_MS) : MAX_BLOCKING_HOLD_MS;
  }
  const stale = query.get('stale');
  if (stale !== null && stale !== '' && parseGoBool(stale) === undefined) {
    throw new SimHttpError(
      400,
      `Expect \`true\` or \`false\` for \`stale\` query string parameter, got ${stale}`,
    );
  }
  return { index, waitMs };
}

/**
 * Answers a GET, holding it while the resource index is <= the requested index. Waiting is
 * in real time (it is wire behaviour, like a client's HTTP timeout), not simulated time.
 */
export function blockingQuery(env: ApiEnv, req: ApiRequest, spec: BlockingSpec): Promise<ApiResponse> {
  const { index, waitMs } = parseQueryOptions(req.query);
  const answer = (): ApiResponse => {
    const response = spec.render();
    const meta = (spec.indexHeaders ?? indexHeaders)(spec.resourceIndex());
    return { ...response, headers: { ...meta, ...response.headers } };
  };
  if (index === 0 || spec.resourceIndex() > index) return Promise.resolve(answer());
  const holdMs = waitMs + env.random() * (waitMs / 16);
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      unwatch();
      req.signal.removeEventListener('abort', finish);
      resolve(answer());
    };
    const unwatch = env.cluster.ctx.store.watch(spec.tables, () => spec.resourceIndex() > index, finish);
    const timer = setTimeout(finish, holdMs);
    req.signal.addEventListener('abort', finish, { once: true });
  });
}
