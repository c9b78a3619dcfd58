/**
 * No secret where it should not be (issue #16, security): a restart through the real command
 * path (the synthesized workflow, local engine, real handlers) with an ACL token, its handlers
 * logging at DEBUG, is searched for the token everywhere it could leak — the execution input,
 * every state's output, the run's result, every progress event, every log line, and everything
 * the simulator logged about the requests: zero hits. A second run reaches Nomad over TLS with a
 * client key, asks a question (a task token) and holds the job's shared lock: neither the key,
 * the token nor anything shaped like a task token appears either.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { runRestartLocally } from '../../lib/engines/local/engine';
import { toRestartInput } from '../../lib/restart/input';
import { FlowStates } from '../../lib/workflow/state-names';
import { startTlsFront, TLS_FIXTURES, type TlsFront } from '../cli/helpers/tls-front';
import { restartOptions } from '../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../steps/helpers/harness';

const TOKEN = '7b1e0c4a-5f3d-4e2b-9a61-secret-token';

let front: TlsFront | undefined;
afterEach(async () => {
  await front?.close();
  front = undefined;
  jest.restoreAllMocks();
});
const harness = harnessPerTest();

/** Four running allocations of `web` behind ACLs, reached with {@link TOKEN}. */
async function tokenCluster(): Promise<Harness> {
  const target = await harness.start(
    {
      jobs: [simpleJob('web', 'service', 4)],
      acl: { enabled: true, tokens: [{ secret: TOKEN, management: true }] },
    },
    { token: TOKEN },
  );
  await waitAllRunning(target, 'web', 4);
  return target;
}

/** What a run left where someone could read it, and the requests Nomad saw, as one string to search. */
function everythingOf(h: Harness, left: Record<string, unknown>): string {
  return JSON.stringify({ ...left, log: h.sim.control.requestLog() });
}

/** Everything written to stdout, stderr and the console (handlers log through them) while it runs. */
function captureWrites(): string[] {
  const written: string[] = [];
  const keep = (chunk: unknown) => {
    written.push(String(chunk));
    return true;
  };
  jest.spyOn(process.stdout, 'write').mockImplementation(keep as never);
  jest.spyOn(process.stderr, 'write').mockImplementation(keep as never);
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest
      .spyOn(console, method)
      .mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
  }
  return written;
}

/** Runs `fn` with the handlers logging at DEBUG. */
async function atDebug<T>(fn: () => Promise<T>): Promise<T> {
  const previousLevel = process.env['POWERTOOLS_LOG_LEVEL'];
  process.env['POWERTOOLS_LOG_LEVEL'] = 'DEBUG';
  try {
    return await fn();
  } finally {
    if (previousLevel === undefined) delete process.env['POWERTOOLS_LOG_LEVEL'];
    else process.env['POWERTOOLS_LOG_LEVEL'] = previousLevel;
  }
}

describe('the ACL token', () => {
  it('appears in no input, state, result, event, log line or request log', async () => {
    // Arrange
    const h = await tokenCluster();
    const written = captureWrites();
    const input = toRestartInput(restartOptions('web', { batchSize: { value: 2, percent: false } }));
    const outputs: unknown[] = [];
    const events: unknown[] = [];

    // Act
    const target = h;
    const result = await atDebug(async () => {
      const local = await runRestartLocally({
        input,
        nomad: { address: target.sim.address, token: TOKEN },
        emit: (event) => events.push(event),
        prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
        onStateExited: (_name, output) => outputs.push(output),
        waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
      });
      return local.result;
    });

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(4);
    const everything = everythingOf(h, { input, outputs, result, events, written });
    expect(outputs.length).toBeGreaterThan(10);
    // The search covers the handlers' logs: their lines were captured.
    expect(written.some((line) => line.includes('Deployment guard'))).toBe(true);
    expect(everything.includes(TOKEN)).toBe(false);
    expect(everything.includes(TOKEN.slice(0, 8))).toBe(false);
  });
});

describe('the TLS client key and the task tokens', () => {
  it('appear in no input, state, result, event, log line or request log of a run over TLS that asks', async () => {
    // Arrange: Nomad behind TLS that takes the client certificate; a question between batches.
    const h = await tokenCluster();
    front = await startTlsFront(h.sim.address);
    const keyPem = readFileSync(join(TLS_FIXTURES, 'client-key.pem'), 'utf8');
    const keyLines = keyPem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
    const written = captureWrites();
    const input = toRestartInput(
      restartOptions('web', {
        batchSize: { value: 2, percent: false },
        batchWait: { kind: 'ask' },
        yes: false,
      }),
    );
    const outputs: unknown[] = [];
    const events: unknown[] = [];
    const prompts: string[] = [];

    // Act
    const address = front.address;
    const result = await atDebug(async () => {
      const local = await runRestartLocally({
        input,
        nomad: {
          address,
          token: TOKEN,
          tls: {
            caCert: join(TLS_FIXTURES, 'ca.pem'),
            clientCert: join(TLS_FIXTURES, 'client.pem'),
            clientKey: join(TLS_FIXTURES, 'client-key.pem'),
          },
        },
        emit: (event) => events.push(event),
        prompt: async (prompt) => {
          prompts.push(prompt);
          return { kind: 'answer', text: 'y' };
        },
        onStateExited: (_name, output) => outputs.push(output),
      });
      return local.result;
    });

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(prompts).toHaveLength(1);
    expect(front.seen.some((r) => r.path.startsWith('/v1/var/'))).toBe(true);
    const everything = everythingOf(h, { input, outputs, result, events, written });
    expect(keyLines.length).toBeGreaterThan(3);
    expect(keyLines.filter((line) => everything.includes(line))).toEqual([]);
    expect(everything.includes(TOKEN)).toBe(false);
    // The engine mints task tokens of 64 base64url characters; nothing of that shape is anywhere.
    expect(everything.match(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{64}(?![A-Za-z0-9_-])/g)).toBeNull();
  });
});
