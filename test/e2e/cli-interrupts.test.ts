// Scenario: spec §5 suggested scenarios 2 and 4 at a real terminal (node-pty). 4: SIGINT
// during a run asks Nomad's interrupt question; `y` prints "Canceling job restart process",
// nothing after it, exits 0 and restarts no further batch; `n` carries on to success.
// 2: -on-error ask after a failed batch asks the recoverable-error question; an empty answer
// means no: the run ends with the errors on stderr and exit 1, without "finished with errors".
// The batch wait (2s) keeps the run alive long enough to be interrupted between batches.
import { jest } from '@jest/globals';
import pty from 'node-pty';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../engine/harness';
import { E2E_ADDR } from '../sim/helpers/target';
import { normalise } from './run-cli';
import { runInPty } from './run-pty';

jest.setTimeout(120_000);
const BIN = new URL('../../bin/nomad-restart.js', import.meta.url).pathname;
const RESTART = 'PUT /v1/client/allocation/:id/restart';
const INTERRUPT_PROMPT = 'Are you sure you want to stop the restart process? [y/N] ';

/** Runs the command in a pty, sends SIGINT after the first "Waiting" line, answers the question. */
function interruptRun(address: string, answer: string) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = pty.spawn(
      process.execPath,
      [BIN, '-no-color', '-yes', '-batch-size', '1', '-batch-wait', '2s', 'web'],
      { env: { PATH: process.env['PATH'] ?? '', TZ: 'UTC', NOMAD_ADDR: address }, cols: 250 },
    );
    let output = '';
    let interrupted = false;
    let answered = false;
    child.onData((data) => {
      output += data;
      if (!interrupted && output.includes('Waiting 2s before restarting the next batch')) {
        interrupted = true;
        child.kill('SIGINT');
      }
      if (!answered && output.endsWith(INTERRUPT_PROMPT)) {
        answered = true;
        child.write(`${answer}\r`);
      }
    });
    const killer = setTimeout(() => child.kill(), 60_000);
    child.onExit(({ exitCode }) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output: normalise(output.replace(/\r/g, '')) });
    });
  });
}

if (E2E_ADDR) {
  console.log(
    `not run against ${E2E_ADDR}: interrupt and on-error scenarios count requests through the simulator`,
  );
} else {
  describe('nomad-restart interrupts and error questions at a terminal', () => {
    let h: Harness;
    beforeEach(async () => {
      h = await startHarness({ jobs: [simpleJob('web', 'service', 3)] });
      await waitAllRunning(h, 'web', 3);
    });
    afterEach(() => h.close());

    it('cancels on y: prints the cancel line last, exits 0, starts no further batch (scenario 4)', async () => {
      // Act
      const { code, output } = await interruptRun(h.sim.address, 'y');

      // Assert
      expect(code).toBe(0);
      expect(output).toContain(
        `==> <ts>: Restart interrupted, no more allocations will be restarted.\n${' '.repeat(31)}${INTERRUPT_PROMPT}y\n`,
      );
      expect(output.endsWith('\nCanceling job restart process\n')).toBe(true);
      expect(output).not.toContain('Job restarted successfully!');
      expect(h.sim.control.counters()[RESTART]).toBe(1);
    });

    it('carries on to success on n (scenario 4)', async () => {
      // Act
      const { code, output } = await interruptRun(h.sim.address, 'n');

      // Assert
      expect(code).toBe(0);
      expect(output).toContain(`${INTERRUPT_PROMPT}n\n`);
      expect(output).not.toContain('Canceling job restart process');
      expect(output).toContain('Job restarted successfully!');
      expect(h.sim.control.counters()[RESTART]).toBe(3);
    });

    it('treats an empty answer to the error question as no: exit 1, errors listed (scenario 2)', async () => {
      // Arrange
      h.sim.control.injectFault({ pathSuffix: '/restart', nth: 1, status: 500, body: 'boom' });

      // Act
      const { code, output } = await runInPty(['-batch-size', '1', 'web'], { NOMAD_ADDR: h.sim.address }, [
        '',
      ]);

      // Assert
      expect(code).toBe(1);
      expect(output).toContain(
        '==> <ts>: Ignore the errors above and proceed with the next batch? [y/N] \n==> <ts>: Job restart canceled',
      );
      expect(output).toMatch(
        /\* Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 500 \(boom\)/,
      );
      expect(output).not.toContain('Job restart finished with errors');
      expect(h.sim.control.counters()[RESTART]).toBe(1);
    });
  });
}
