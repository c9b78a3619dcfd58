/**
 * No secret where it should not be (issue #16, security): a restart through the real command
 * path (the synthesized workflow, local engine, real handlers) with an ACL token, its handlers
 * logging at DEBUG, is searched for the token everywhere it could leak — the execution input,
 * every state's output, the run's result, every progress event, every log line, and everything
 * the simulator logged about the requests: zero hits.
 */
import { jest } from '@jest/globals';
import { runRestartLocally } from '../../lib/engines/local/engine';
import { toRestartInput } from '../../lib/restart/input';
import { FlowStates } from '../../lib/workflow/state-names';
import { type Harness, restartOptions, simpleJob, startHarness, waitAllRunning } from '../steps/harness';

jest.setTimeout(60_000);

const TOKEN = '7b1e0c4a-5f3d-4e2b-9a61-secret-token';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  jest.restoreAllMocks();
});

describe('the ACL token', () => {
  it('appears in no input, state, result, event, log line or request log', async () => {
    // Arrange
    h = await startHarness(
      {
        jobs: [simpleJob('web', 'service', 4)],
        acl: { enabled: true, tokens: [{ secret: TOKEN, management: true }] },
      },
      { token: TOKEN },
    );
    await waitAllRunning(h, 'web', 4);
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
    const previousLevel = process.env['POWERTOOLS_LOG_LEVEL'];
    process.env['POWERTOOLS_LOG_LEVEL'] = 'DEBUG';
    const input = toRestartInput(restartOptions('web', { batchSize: { value: 2, percent: false } }));
    const outputs: unknown[] = [];
    const events: unknown[] = [];

    // Act
    const local = await runRestartLocally({
      input,
      nomad: { address: h.sim.address, token: TOKEN },
      emit: (event) => events.push(event),
      prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
      onStateExited: (_name, output) => outputs.push(output),
      waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    });
    const result = await local.result;
    if (previousLevel === undefined) delete process.env['POWERTOOLS_LOG_LEVEL'];
    else process.env['POWERTOOLS_LOG_LEVEL'] = previousLevel;

    // Assert
    expect(result.status).toBe('SUCCEEDED');
    expect(h.sim.control.counters()['PUT /v1/client/allocation/:id/restart']).toBe(4);
    const everything = JSON.stringify({
      input,
      outputs,
      result,
      events,
      written,
      log: h.sim.control.requestLog(),
    });
    expect(outputs.length).toBeGreaterThan(10);
    // The search covers the handlers' logs: their lines were captured.
    expect(written.some((line) => line.includes('Deployment guard'))).toBe(true);
    expect(everything.includes(TOKEN)).toBe(false);
    expect(everything.includes(TOKEN.slice(0, 8))).toBe(false);
  });
});
