/**
 * SHA-1 (FIPS 180-4, section 6.1) in plain TypeScript, for digests that name or fingerprint
 * something and protect nothing: the continued execution's name (lib/workflow/continuation-name.ts)
 * and the Nomad client's settings fingerprint (lambdas/private/nomad-client-middleware.ts). Both
 * are computed before a local run's first request, where requiring `node:crypto` cost about 7 ms
 * of CPU on every run, a job that is not found included (docs/benchmarks.md, "The last
 * milliseconds of a job not found"). Its digest is `node:crypto`'s, byte for byte
 * (test/digest/sha1.unit.test.ts).
 */

/** The five words SHA-1 starts from (FIPS 180-4, 5.3.1). */
const INITIAL = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0] as const;

/** The message as FIPS 180-4 pads it (5.1.1): a 1 bit, zeros, its bit length in 64 bits, in 32-bit words. */
function paddedWords(message: Uint8Array): Int32Array {
  const blocks = Math.ceil((message.length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const view = new DataView(bytes.buffer);
  const bits = message.length * 8;
  view.setUint32(bytes.length - 8, Math.floor(bits / 0x1_0000_0000));
  view.setUint32(bytes.length - 4, bits >>> 0);
  const words = new Int32Array(blocks * 16);
  for (let i = 0; i < words.length; i++) words[i] = view.getInt32(i * 4);
  return words;
}

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/** The round function and constant of round `t` (FIPS 180-4, 4.1.1 and 4.2.1). */
function roundValue(t: number, b: number, c: number, d: number): number {
  if (t < 20) return ((b & c) | (~b & d)) + 0x5a827999;
  if (t < 40) return (b ^ c ^ d) + 0x6ed9eba1;
  if (t < 60) return ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc;
  return (b ^ c ^ d) + 0xca62c1d6;
}

/** Word `i` of `words` (always inside it here: the index check is the compiler's). */
const wordAt = (words: Int32Array, i: number): number => words[i] ?? 0;

/** The hex SHA-1 of `text` in UTF-8, as `createHash('sha1').update(text, 'utf8').digest('hex')`. */
export function sha1Hex(text: string): string {
  const words = paddedWords(Buffer.from(text, 'utf8'));
  const h = Int32Array.from(INITIAL);
  const w = new Int32Array(80);
  for (let block = 0; block < words.length; block += 16) {
    w.set(words.subarray(block, block + 16));
    for (let t = 16; t < 80; t++) {
      w[t] = rotl(wordAt(w, t - 3) ^ wordAt(w, t - 8) ^ wordAt(w, t - 14) ^ wordAt(w, t - 16), 1);
    }
    let a = wordAt(h, 0);
    let b = wordAt(h, 1);
    let c = wordAt(h, 2);
    let d = wordAt(h, 3);
    let e = wordAt(h, 4);
    for (let t = 0; t < 80; t++) {
      const temp = (rotl(a, 5) + roundValue(t, b, c, d) + e + wordAt(w, t)) | 0;
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = temp;
    }
    h.set([wordAt(h, 0) + a, wordAt(h, 1) + b, wordAt(h, 2) + c, wordAt(h, 3) + d, wordAt(h, 4) + e]);
  }
  return Array.from(h, (word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
}
