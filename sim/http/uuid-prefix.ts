/**
 * Nomad looks IDs up by prefix in go-memdb's UUID index (`UUIDFieldIndex.PrefixFromArgs`, go-memdb
 * `index.go`), which reads the prefix as hex bytes with the hyphens dropped: an odd number of hex
 * digits or a non-hex character is an error (`index error: ...`, answered as a 500), and the
 * hyphens' places do not matter (`5a1c0d2e7b` finds `5a1c0d2e-7b3f-...`). That is why Nomad's CLI
 * trims an odd-length prefix before asking.
 */
import { SimHttpError } from '../errors';

/**
 * A predicate for IDs that start with `prefix` as the UUID index compares them; every ID for an
 * empty prefix (Nomad does not use the index then).
 * @throws SimHttpError 500 with go-memdb's text, prefixed `index error: ` as go-memdb's txn does
 */
export function uuidPrefixMatcher(prefix: string): (id: string) => boolean {
  if (prefix === '') return () => true;
  const fail = (message: string): never => {
    throw new SimHttpError(500, `index error: ${message}`);
  };
  if (prefix.length > 36) fail(`Invalid UUID length. UUID have 36 characters; got ${prefix.length}`);
  const hyphens = prefix.split('-').length - 1;
  if (hyphens > 4) fail(`UUID should have maximum of 4 "-"; got ${hyphens}`);
  const hex = prefix.replaceAll('-', '');
  if (hex.length % 2 !== 0) fail('Input (without hyphens) must be even length');
  const bad = [...hex].find((ch) => !/[0-9a-fA-F]/.test(ch));
  if (bad !== undefined) {
    const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    fail(`Invalid UUID: encoding/hex: invalid byte: ${code} '${bad}'`);
  }
  const wanted = hex.toLowerCase();
  return (id) => id.replaceAll('-', '').toLowerCase().startsWith(wanted);
}
