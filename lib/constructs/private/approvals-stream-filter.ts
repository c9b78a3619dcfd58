/**
 * The filters that keep the replay guard's `seen:<key>` inserts on the approvals table's stream
 * from ever invoking a notifier: only questions (and their changes) get through.
 *
 * Lambda's filter rules have `prefix` but no negated prefix (the operators of
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html#filtering-syntax),
 * so "does not start with `seen:`" is spelled out positively over the characters an approval id
 * is made of (`newApprovalId`, `isApprovalId` in lib/stores/approval-store.ts): a key passes when
 * it first differs from the prefix at some position. One filter per position (5 for `seen:`,
 * Lambda's default limit), so each pattern stays well under its 4,096 characters.
 */
import { REPLAY_KEY_PREFIX } from '../../stores/replay-guard';

/** Every character of an approval id: URL-safe base64. */
const APPROVAL_ID_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The `prefix` lists, one per position `i` of `excluded`: the key starts with `excluded`'s first
 * `i` characters, then any id character but `excluded[i]`. A key matches one list exactly when
 * it does not start with `excluded` (ids are made of those characters only).
 */
export function prefixesNotStartingWith(excluded: string, characters = APPROVAL_ID_CHARACTERS): string[][] {
  return [...excluded].map((c, i) =>
    [...characters].filter((d) => d !== c).map((d) => `${excluded.slice(0, i)}${d}`),
  );
}

/**
 * The event-source filter patterns: `eventNames` records whose `keyAttribute` is not a replay
 * guard key. The stream is KEYS_ONLY, so the key is all a record carries.
 */
export function questionRecordPatterns(keyAttribute: string, eventNames: readonly string[]): string[] {
  return prefixesNotStartingWith(REPLAY_KEY_PREFIX).map((prefixes) =>
    JSON.stringify({
      eventName: [...eventNames],
      dynamodb: { Keys: { [keyAttribute]: { S: prefixes.map((prefix) => ({ prefix })) } } },
    }),
  );
}
