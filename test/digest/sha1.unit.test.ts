/**
 * Scenario: `sha1Hex` gives `node:crypto`'s digest for every text the project hashes with
 * it: empty, ASCII, UTF-8 beyond one byte a character, and lengths around the 64-byte block and
 * its 56-byte padding edge.
 */
import { createHash } from 'node:crypto';
import { sha1Hex } from '../../lib/digest/sha1';

const nodeSha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

describe('sha1Hex', () => {
  it("gives FIPS 180-4's example digest of 'abc'", () => {
    // Act
    const digest = sha1Hex('abc');

    // Assert
    expect(digest).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });

  it.each([
    ['empty', ''],
    [
      'an execution ARN',
      'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart:web-20261124T100000Z',
    ],
    ['UTF-8 of two, three and four bytes', 'é😀 job—名前'],
    ...[55, 56, 63, 64, 65, 119, 120, 1000].map((length) => [`${length} bytes`, 'x'.repeat(length)]),
  ])("gives node:crypto's digest of %s", (_what, text) => {
    // Act
    const digest = sha1Hex(text);

    // Assert
    expect(digest).toBe(nodeSha1(text));
  });
});
