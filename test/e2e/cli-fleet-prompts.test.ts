// Scenario: `nomad-restart fleet -batch-wait ask -max-jobs 2` in a pseudo-terminal against the
// simulator with ACLs: two jobs restart at once and each asks between its batches; the questions
// come one at a time, each naming its job, every one is answered "y", and both jobs finish. And
// SIGINT during a fleet asks Nomad's interrupt question; "y" cancels the running job at its next
// safe point and starts no further job.
import pty from 'node-pty';
import type { Harness } from '../steps/helpers/harness';
import { fleetEnv, inFlight, openFleet, restartedJobs, teamJob } from './helpers/fleet-fixture';
import { normalise } from './helpers/run-cli';
import { runInPty } from './helpers/run-pty';

const BIN = new URL('../../bin/nomad-restart.js', import.meta.url).pathname;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('nomad-restart fleet at a terminal', () => {
  it('asks each job’s questions one at a time, naming the job', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      jobs: [teamJob('a', 'payments', 'payments', 2), teamJob('b', 'payments', 'payments', 2)],
    });

    // Act
    const result = await runInPty(
      ['fleet', '-namespace', 'payments', '-max-jobs', '2', '-batch-wait', 'ask', '-on-error', 'fail'],
      fleetEnv(h),
      ['y', 'y'],
    );

    // Assert
    expect(result.code).toBe(0);
    const questions = result.output
      .split('\n')
      .filter((line) => line.includes('Proceed with the next batch?'));
    expect(questions).toHaveLength(2);
    expect(questions.map((q) => /\[payments\/(a|b)\]/.exec(q)?.[1]).sort()).toEqual(['a', 'b']);
    expect(result.output).toMatch(/^Fleet restart finished: 2 jobs restarted, 0 failed, 0 skipped$/m);
    expect(restartedJobs(h)).toEqual(['payments/a', 'payments/b']);
  });
});

const INTERRUPT_PROMPT = 'Are you sure you want to stop the restart process? [y/N] ';

/** Runs the fleet in a pty, sends SIGINT once the first job waits between batches, answers `answer`. */
function interruptFleet(env: Readonly<Record<string, string>>, answer: string) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = pty.spawn(
      process.execPath,
      [BIN, 'fleet', '-no-color', '-yes', '-namespace', 'payments', '-batch-size', '1', '-batch-wait', '2s'],
      { env: { PATH: process.env['PATH'] ?? '', TZ: 'UTC', ...env }, cols: 250 },
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
    const killer = setTimeout(() => child.kill(), 120_000);
    child.onExit(({ exitCode }) => {
      clearTimeout(killer);
      resolve({ code: exitCode, output: normalise(output.replace(/\r/g, '')) });
    });
  });
}

describe('nomad-restart fleet interrupted at a terminal', () => {
  it('cancels on y: the running job stops at its next safe point, no further job starts, exit 0', async () => {
    // Arrange
    h = await openFleet({
      namespaces: ['payments'],
      jobs: ['a', 'b', 'c'].map((id) => teamJob(id, 'payments', 'payments', 2)),
    });

    // Act
    const { code, output } = await interruptFleet(fleetEnv(h), 'y');

    // Assert
    expect(code).toBe(0);
    expect(output.endsWith('\nCanceling job restart process\n')).toBe(true);
    expect(output).not.toContain('Restarting job "b"');
    expect(restartedJobs(h)).toEqual(['payments/a']);
    expect(inFlight(h).map((w) => w.job)).toEqual(['payments/a']);
  });
});
