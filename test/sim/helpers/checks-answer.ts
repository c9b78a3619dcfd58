/**
 * The envelope of Nomad's `GET /v1/client/allocation/:id/checks` answer as traced on a dev agent
 * (sim/README.md): 200, no `X-Nomad-Index` header, a map from check ID (64 hex
 * characters) to its result.
 */
import type { WireResponse } from './http';

/** Asserts the traced envelope around one check and returns that check's ID and result. */
export function onlyTracedCheck<T>(answer: WireResponse<Record<string, T> | null>): [string, T | undefined] {
  const entries = Object.entries(answer.json ?? {});
  expect(answer.status).toBe(200);
  expect(answer.headers.get('X-Nomad-Index')).toBeNull();
  expect(entries).toHaveLength(1);
  const [id, result] = entries[0] ?? [];
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  return [id ?? '', result];
}
