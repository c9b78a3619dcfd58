// Scenario: the retry policy of reads and writes, with the transport (the edge) faked so
// the number of attempts can be counted exactly, including connection refusals that a
// loopback server cannot count.

import { backoffDelay, DEFAULT_BACKOFF, resolveBackoff } from '../../lib/http/retry';
import {
  NomadAbortedError,
  NomadConnectionError,
  NomadTimeoutError,
  UnexpectedResponseError,
} from '../../lib/nomad';
import { Requester } from '../../lib/nomad/private/requester';
import type { RawRequest, RawResponse, Transport } from '../../lib/nomad/private/transport';

/** A transport that fails with `failures` in order, then answers `{}`. */
function fakeTransport(failures: Error[]): { transport: Transport; sent: RawRequest[] } {
  const sent: RawRequest[] = [];
  const transport = {
    describe: (req: RawRequest) => `${req.method} http://nomad${req.path}`,
    send: async (req: RawRequest): Promise<RawResponse> => {
      sent.push(req);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return { headers: { 'x-nomad-index': '5' }, body: '{"EvalID":"e1","Index":5}' };
    },
  } as unknown as Transport;
  return { transport, sent };
}

const fast = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 };
const refused = (): Error => new NomadConnectionError('refused', false, 'ECONNREFUSED');
const reset = (): Error => new NomadConnectionError('reset', true, 'ECONNRESET');
const decodeAny = (_ctx: unknown, v: unknown): unknown => v;

describe('Requester', () => {
  describe('query', () => {
    it.each([
      { name: 'connection refused', failures: [refused(), refused()], sends: 3 },
      { name: 'connection reset', failures: [reset()], sends: 2 },
      {
        name: '503 then 502',
        failures: [new UnexpectedResponseError(503, ''), new UnexpectedResponseError(502, '')],
        sends: 3,
      },
      { name: 'timeout', failures: [new NomadTimeoutError('slow')], sends: 2 },
      {
        name: '500 No cluster leader',
        failures: [new UnexpectedResponseError(500, 'No cluster leader')],
        sends: 2,
      },
    ])('retries a GET after $name and succeeds', async ({ failures, sends }) => {
      // Arrange
      const { transport, sent } = fakeTransport(failures);
      const http = new Requester(transport, resolveBackoff(fast), undefined, undefined);

      // Act
      const result = await http.query('/v1/x', {}, undefined, decodeAny);

      // Assert
      expect(sent).toHaveLength(sends);
      expect(result.index).toBe(5);
    });

    it.each([
      { name: '500', failure: new UnexpectedResponseError(500, 'boom') },
      { name: '404', failure: new UnexpectedResponseError(404, 'job not found') },
      { name: 'abort', failure: new NomadAbortedError('aborted') },
    ])('does not retry a GET after $name', async ({ failure }) => {
      // Arrange
      const { transport, sent } = fakeTransport([failure]);
      const http = new Requester(transport, resolveBackoff(fast), undefined, undefined);

      // Act
      const result = http.query('/v1/x', {}, undefined, decodeAny);

      // Assert
      await expect(result).rejects.toBe(failure);
      expect(sent).toHaveLength(1);
    });

    it('gives up after the configured attempts and throws the last error', async () => {
      // Arrange
      const last = new UnexpectedResponseError(503, 'last');
      const { transport, sent } = fakeTransport([refused(), refused(), refused(), last]);
      const http = new Requester(transport, resolveBackoff(fast), undefined, undefined);

      // Act
      const result = http.query('/v1/x', {}, undefined, decodeAny);

      // Assert
      await expect(result).rejects.toBe(last);
      expect(sent).toHaveLength(4);
    });

    it('stops retrying when the signal aborts during the backoff', async () => {
      // Arrange
      const { transport, sent } = fakeTransport([refused(), refused()]);
      const http = new Requester(
        transport,
        resolveBackoff({ attempts: 4, baseDelayMs: 60_000, maxDelayMs: 60_000 }),
        undefined,
        undefined,
      );
      const controller = new AbortController();

      // Act
      const result = http.query('/v1/x', {}, { signal: controller.signal }, decodeAny);
      setImmediate(() => controller.abort());

      // Assert
      await expect(result).rejects.toThrow(new NomadAbortedError('GET http://nomad/v1/x: request aborted'));
      expect(sent).toHaveLength(1);
    });
  });

  describe('write', () => {
    it('retries a PUT that was refused before sending', async () => {
      // Arrange
      const { transport, sent } = fakeTransport([refused(), refused()]);
      const http = new Requester(transport, resolveBackoff(fast), undefined, undefined);

      // Act
      const result = await http.write('/v1/x', {}, { a: 1 }, undefined, decodeAny);

      // Assert
      expect(sent).toHaveLength(3);
      expect(result.index).toBe(5);
    });

    it.each([
      { name: 'connection reset (maybe sent)', failure: reset() },
      { name: '503', failure: new UnexpectedResponseError(503, '') },
      { name: 'timeout', failure: new NomadTimeoutError('slow') },
    ])('never retries a PUT after $name', async ({ failure }) => {
      // Arrange
      const { transport, sent } = fakeTransport([failure]);
      const http = new Requester(transport, resolveBackoff(fast), undefined, undefined);

      // Act
      const result = http.writeIgnoringBody('/v1/x', {}, { a: 1 }, undefined);

      // Assert
      await expect(result).rejects.toBe(failure);
      expect(sent).toHaveLength(1);
    });
  });
});

describe('backoffDelay', () => {
  it.each([
    { retry: 0, random: 0.999, expected: 99 },
    { retry: 1, random: 0.5, expected: 100 },
    { retry: 3, random: 0.999, expected: 799 },
    { retry: 10, random: 0.999, expected: 1998 },
    { retry: 2, random: 0, expected: 0 },
  ])('draws below min(2000, 100 * 2^$retry) for retry $retry', ({ retry, random, expected }) => {
    // Arrange / Act
    const delay = backoffDelay(retry, DEFAULT_BACKOFF, () => random);

    // Assert
    expect(delay).toBe(expected);
  });

  it('defaults to 4 attempts, 100 ms base and a 2 s cap', () => {
    // Arrange / Act / Assert
    expect(resolveBackoff(undefined)).toEqual({ attempts: 4, baseDelayMs: 100, maxDelayMs: 2000 });
    expect(resolveBackoff({ attempts: 0 }).attempts).toBe(1);
  });
});
