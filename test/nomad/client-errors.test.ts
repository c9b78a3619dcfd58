// Scenario: failures against a stand-in Nomad on 127.0.0.1: Nomad's exact error texts,
// read retries, aborts of held blocking queries, timeouts, malformed answers, and the
// ACL token kept out of every error and every logged form of the fake.client.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { inspect } from 'node:util';
import {
  NomadAbortedError,
  NomadClient,
  NomadDecodeError,
  NomadTimeoutError,
  UnexpectedResponseError,
} from '../../lib/nomad';
import { fakeNomadPerTest, refusedAddress } from './helpers/fake-nomad';
import { allocJson, jobJson } from './helpers/wire';

const TOKEN = 'a3c1f7e2-secret-token-5b9d';

/** Every text form of `err` a log could show. */
function allTexts(err: unknown): string {
  return [String(err), err instanceof Error ? (err.stack ?? '') : '', inspect(err, { depth: 5 })].join('\n');
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('NomadClient errors', () => {
  const fake = fakeNomadPerTest({ token: TOKEN, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 } });

  describe('unexpected responses', () => {
    it.each([
      { status: 404, body: 'job not found', message: 'Unexpected response code: 404 (job not found)' },
      {
        status: 403,
        body: 'Permission denied',
        message: 'Unexpected response code: 403 (Permission denied)',
      },
      {
        status: 500,
        body: '1 error occurred:\n\t* failed\n\n',
        message: 'Unexpected response code: 500 (1 error occurred:\n\t* failed)',
      },
      { status: 400, body: '', message: 'Unexpected response code: 400' },
    ])('rejects $status with Nomad text', async ({ status, body, message }) => {
      // Arrange
      fake.nomad.setHandler(() => ({ status, body }));

      // Act
      const err = await caught(fake.client.jobs().info('web'));

      // Assert
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect((err as Error).message).toBe(message);
      expect(fake.nomad.requests).toHaveLength(1);
    });

    it('rejects a proxy 502 with an empty body after the read retries run out', async () => {
      // Arrange
      fake.nomad.setHandler(() => ({ status: 502 }));

      // Act
      const err = await caught(fake.client.jobs().info('web'));

      // Assert
      expect((err as Error).message).toBe('Unexpected response code: 502');
      expect(fake.nomad.requests).toHaveLength(4);
    });

    it('accepts only 200', async () => {
      // Arrange
      fake.nomad.enqueue({ status: 204 });

      // Act
      const err = await caught(fake.client.jobs().info('web'));

      // Assert
      expect((err as Error).message).toBe('Unexpected response code: 204');
    });
  });

  describe('read retries', () => {
    it('retries a GET after 503 and returns the next answer', async () => {
      // Arrange
      fake.nomad.enqueue(
        { status: 503, body: 'busy' },
        { body: jobJson(), headers: { 'X-Nomad-Index': '8' } },
      );

      // Act
      const result = await fake.client.jobs().info('web');

      // Assert
      expect(fake.nomad.requests).toHaveLength(2);
      expect(result.index).toBe(8);
    });

    it('retries a GET after the connection drops', async () => {
      // Arrange
      fake.nomad.enqueue({ destroy: true }, { body: jobJson() });

      // Act
      const result = await fake.client.jobs().info('web');

      // Assert
      expect(fake.nomad.requests).toHaveLength(2);
      expect(result.value.ID).toBe('web');
    });
  });

  describe('abort', () => {
    it('ends a held blocking query with NomadAbortedError and no retry', async () => {
      // Arrange
      fake.nomad.setHandler(() => ({ hold: true }));
      const controller = new AbortController();

      // Act
      const pending = fake.client.allocations().info('a1', { index: 100, signal: controller.signal });
      await waitFor(() => fake.nomad.requests.length === 1);
      controller.abort();
      const err = await caught(pending);

      // Assert
      expect(err).toBeInstanceOf(NomadAbortedError);
      expect((err as Error).message).toBe(
        `GET ${fake.nomad.address}/v1/allocation/a1?index=100: request aborted`,
      );
      expect(fake.nomad.requests).toHaveLength(1);
    });

    it('sends nothing when the signal has already fired', async () => {
      // Arrange
      const controller = new AbortController();
      controller.abort();

      // Act
      const err = await caught(fake.client.allocations().restart('a1', {}, { signal: controller.signal }));

      // Assert
      expect(err).toBeInstanceOf(NomadAbortedError);
      expect(fake.nomad.requests).toHaveLength(0);
    });
  });

  describe('timeouts', () => {
    /** A client that gives each request 50 ms and does not retry. */
    const clientGiving50ms = () =>
      NomadClient.create({
        address: fake.nomad.address,
        timeouts: { requestMs: 50 },
        retry: { attempts: 1 },
      });

    it('ends a request that gets no answer within the limit', async () => {
      // Arrange
      const slow = clientGiving50ms();
      fake.nomad.setHandler(() => ({ hold: true }));

      // Act
      const err = await caught(slow.jobs().info('web'));
      await slow.close();

      // Assert
      expect(err).toBeInstanceOf(NomadTimeoutError);
      expect((err as Error).message).toBe(`GET ${fake.nomad.address}/v1/job/web: no response within 50 ms`);
    });

    it('gives a blocking query its wait plus jitter on top of the limit', async () => {
      // Arrange
      const slow = clientGiving50ms();
      fake.nomad.setHandler(() => ({ hold: true }));

      // Act
      const err = await caught(slow.jobs().info('web', { index: 5, waitMs: 160 }));
      await slow.close();

      // Assert
      expect((err as Error).message).toBe(
        `GET ${fake.nomad.address}/v1/job/web?index=5&wait=160ms: no response within 220 ms`,
      );
    });
  });

  describe('connections', () => {
    it('gives up on a connection whose TLS handshake never completes within connectMs', async () => {
      // Arrange: a listener that accepts TCP and never says a word
      const sockets: Socket[] = [];
      const silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      const stalled = NomadClient.create({
        address: `https://127.0.0.1:${port}`,
        timeouts: { connectMs: 100 },
        retry: { attempts: 1 },
      });

      // Act
      const err = await caught(stalled.jobs().info('web'));
      await stalled.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));

      // Assert
      expect(err).toBeInstanceOf(NomadTimeoutError);
      expect((err as Error).message).toBe(
        `GET https://127.0.0.1:${port}/v1/job/web: Connect Timeout Error (timeout: 100ms)`,
      );
    });

    it('lets a request in flight finish before close resolves', async () => {
      // Arrange
      fake.nomad.setHandler(() => ({ hold: true }));
      const pending = fake.client.jobs().info('web');
      await waitFor(() => fake.nomad.requests.length === 1);

      // Act: close while the request is held, then answer it
      let closed = false;
      const closing = fake.client.close().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const closedWhileHeld = closed;
      fake.nomad.answerHeld({ body: jobJson() });
      const result = await pending;
      await closing;

      // Assert
      expect(closedWhileHeld).toBe(false);
      expect(result.value.ID).toBe('web');
    });
  });

  describe('decoding', () => {
    it.each([
      {
        name: 'invalid JSON',
        body: '{"ID":',
        message: /^Error decoding response of GET \/v1\/job\/web: invalid JSON: /,
      },
      {
        name: 'ID not a string',
        body: { ...jobJson(), ID: 7 },
        message: /^Error decoding response of GET \/v1\/job\/web: ID: expected string, got number$/,
      },
      {
        name: 'array for an object',
        body: [jobJson()],
        message: /^Error decoding response of GET \/v1\/job\/web: response: expected object, got array$/,
      },
      {
        name: 'task group without name',
        body: jobJson({ TaskGroups: [{ Count: 1 }] }),
        message: /: TaskGroups\[0\].Name: expected string, got undefined$/,
      },
    ])('names the endpoint on $name', async ({ body, message }) => {
      // Arrange
      fake.nomad.enqueue({ body });

      // Act
      const err = await caught(fake.client.jobs().info('web'));

      // Assert
      expect(err).toBeInstanceOf(NomadDecodeError);
      expect((err as Error).message).toMatch(message);
    });

    it.each([
      {
        name: 'an object for the list',
        body: { ID: 'x' },
        message:
          'Error decoding response of GET /v1/job/web/allocations: response: expected array, got object',
      },
      {
        name: 'a wrong TaskStates type',
        body: [allocJson(), allocJson({ TaskStates: [] })],
        message:
          'Error decoding response of GET /v1/job/web/allocations: [1].TaskStates: expected object, got array',
      },
      {
        name: 'a bad task state',
        body: [allocJson({ TaskStates: { web: { State: 3 } } })],
        message:
          'Error decoding response of GET /v1/job/web/allocations: [0].TaskStates.web.State: expected string, got number',
      },
      {
        name: 'a bad embedded field',
        body: [allocJson({ NextAllocation: false })],
        message:
          'Error decoding response of GET /v1/job/web/allocations: [0].NextAllocation: expected string, got boolean',
      },
    ])('rejects an allocation list with $name', async ({ body, message }) => {
      // Arrange
      fake.nomad.enqueue({ body });

      // Act
      const err = await caught(fake.client.jobs().allocations('web'));

      // Assert
      expect(err).toEqual(new NomadDecodeError(message));
    });
  });

  describe('secrecy', () => {
    it('keeps the token out of every error kind', async () => {
      // Arrange
      fake.nomad.enqueue(
        { status: 403, body: 'Permission denied' },
        { status: 500, body: `token ${TOKEN} rejected` },
        { body: '{not json' },
        { body: { ID: 1 } },
        { hold: true },
      );
      const refused = NomadClient.create({
        address: await refusedAddress(),
        token: TOKEN,
        retry: { attempts: 1 },
      });
      const slow = NomadClient.create({
        address: fake.nomad.address,
        token: TOKEN,
        timeouts: { requestMs: 30 },
        retry: { attempts: 1 },
      });
      const aborted = new AbortController();
      aborted.abort();

      // Act
      const errors = [
        await caught(fake.client.jobs().info('web')),
        await caught(fake.client.allocations().restart('a1', {})),
        await caught(fake.client.jobs().info('web')),
        await caught(fake.client.jobs().info('web')),
        await caught(slow.jobs().info('web')),
        await caught(refused.jobs().info('web')),
        await caught(fake.client.jobs().info('web', { signal: aborted.signal })),
        await caught(Promise.resolve().then(() => NomadClient.create({ address: 'nope', token: TOKEN }))),
      ];
      await refused.close();
      await slow.close();

      // Assert
      expect(errors.map((e) => (e as Error).name)).toEqual([
        'UnexpectedResponseError',
        'UnexpectedResponseError',
        'NomadDecodeError',
        'NomadDecodeError',
        'NomadTimeoutError',
        'NomadConnectionError',
        'NomadAbortedError',
        'NomadClientInitError',
      ]);
      expect((errors[1] as Error).message).toBe('Unexpected response code: 500 (token <redacted> rejected)');
      for (const err of errors) {
        expect(allTexts(err)).not.toContain(TOKEN);
      }
    });

    it('redacts the token and password when the client or its config is logged', () => {
      // Arrange
      const secretive = NomadClient.create({
        address: fake.nomad.address,
        token: TOKEN,
        httpAuth: { username: 'ops', password: 'hunter2-password' },
      });

      // Act
      const texts = [
        JSON.stringify(secretive),
        inspect(secretive),
        JSON.stringify(secretive.config),
        inspect(secretive.config),
        JSON.stringify(secretive.withNamespace('prod')),
      ];

      // Assert
      for (const text of texts) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain('hunter2-password');
        expect(text).toContain('<redacted>');
      }
      expect(secretive.config.token).toBe(TOKEN);
    });
  });
});

/** Polls `condition` on the event loop (no timed assertion: the test timeout is the bound). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
