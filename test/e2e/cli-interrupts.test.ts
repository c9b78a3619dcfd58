// Scenario: acceptance scenarios 2 (`-on-error ask`) and 4 (SIGINT) at a real terminal (node-pty). 4: SIGINT
// during a run asks Nomad's interrupt question; `y` prints "Canceling job restart process",
// nothing after it, exits 0 and restarts no further batch; `n` carries on to success.
// 2: -on-error ask after a failed batch asks the recoverable-error question; an empty answer
// means no: the run ends with the errors on stderr and exit 1, without "finished with errors".
// The batch wait (2s) keeps the run alive long enough to be interrupted between batches.
// Runs against the simulator or the agent at NOMAD_E2E_ADDR; the restarted allocations are
// read back through the API, and scenario 2's failing restart comes from a proxy in front.

import { simpleJob } from '../steps/helpers/harness';
import { restartedCount, runningE2ePerTest } from './helpers/e2e-target';
import { INTERRUPT_PROMPT, runInPty, runInterrupted } from './helpers/run-pty';
import { startStubProxy } from './helpers/stub-proxy';

const RESTART = 'PUT /v1/client/allocation/:id/restart';

/** Runs the command in a pty, sends SIGINT after the first "Waiting" line, answers the question. */
const interruptRun = (env: Readonly<Record<string, string>>, answer: string) =>
  runInterrupted(
    ['-yes', '-batch-size', '1', '-batch-wait', '2s', 'web'],
    env,
    'Waiting 2s before restarting the next batch',
    answer,
  );

describe('nomad-restart interrupts and error questions at a terminal', () => {
  const h = runningE2ePerTest(simpleJob('web', 'service', 3));
  /** How many allocations of `web` got a restart, once `expected` have (or after the wait). */
  const restarted = (expected: number) => restartedCount(h, 'web', expected);

  it('cancels on y: prints the cancel line last, exits 0, starts no further batch (scenario 4)', async () => {
    // Act
    const { code, output } = await interruptRun(h.env, 'y');

    // Assert
    expect(code).toBe(0);
    expect(output).toContain(
      `==> <ts>: Restart interrupted, no more allocations will be restarted.\n${' '.repeat(31)}${INTERRUPT_PROMPT}y\n`,
    );
    expect(output.endsWith('\nCanceling job restart process\n')).toBe(true);
    expect(output).not.toContain('Job restarted successfully!');
    expect(await restarted(1)).toBe(1);
    if (h.sim) expect(h.sim.control.counters()[RESTART]).toBe(1);
  });

  it('carries on to success on n (scenario 4)', async () => {
    // Act
    const { code, output } = await interruptRun(h.env, 'n');

    // Assert
    expect(code).toBe(0);
    expect(output).toContain(`${INTERRUPT_PROMPT}n\n`);
    expect(output).not.toContain('Canceling job restart process');
    expect(output).toContain('Job restarted successfully!');
    expect(await restarted(3)).toBe(3);
    if (h.sim) expect(h.sim.control.counters()[RESTART]).toBe(3);
  });

  it('treats an empty answer to the error question as no: exit 1, errors listed (scenario 2)', async () => {
    // Arrange: a proxy in front answers the first restart with a 500 that never reaches Nomad.
    const proxy = await startStubProxy(h.address, {}, [
      { pathSuffix: '/restart', nth: 1, status: 500, body: 'boom', forward: false },
    ]);

    // Act
    const { code, output } = await runInPty(
      ['-batch-size', '1', 'web'],
      { ...h.env, NOMAD_ADDR: proxy.address },
      [''],
    );
    await proxy.close();

    // Assert
    expect(code).toBe(1);
    expect(output).toContain(
      '==> <ts>: Ignore the errors above and proceed with the next batch? [y/N] \n==> <ts>: Job restart canceled',
    );
    expect(output).toMatch(
      /\* Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 500 \(boom\)/,
    );
    expect(output).not.toContain('Job restart finished with errors');
    expect(proxy.requests('PUT', '/restart')).toBe(1);
    expect(await restarted(0)).toBe(0);
  });
});
