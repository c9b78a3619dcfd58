/**
 * SHA-1 for digests that name or fingerprint something and protect nothing: the continued
 * execution's name (lib/workflow/continuation-name.ts) and the Nomad client's settings fingerprint
 * (lambdas/private/nomad-client-middleware.ts). Both are computed before a local run's first
 * request, where requiring `node:crypto` cost about 7 ms of CPU on every run, a job that is not
 * found included (docs/benchmarks.md, "The last milliseconds of a job not found"); `@noble/hashes`
 * is plain JavaScript, audited, and loads in well under a millisecond. Its digest is
 * `node:crypto`'s, byte for byte (test/digest/sha1.unit.test.ts).
 */
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The hex SHA-1 of `text` in UTF-8, as `createHash('sha1').update(text, 'utf8').digest('hex')`. */
export function sha1Hex(text: string): string {
  return bytesToHex(sha1(utf8ToBytes(text)));
}
