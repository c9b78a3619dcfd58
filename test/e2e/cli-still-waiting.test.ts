// Scenario: spec §5 suggested scenario 5 [TIMING], through the real command: a -reschedule
// whose replacement stays pending for over 60 s prints `Still waiting for allocation "<orig>"
// to be replaced` 60 s after the watch began, while it waits (the step streams its lines),
// not when the step ends. The replacement then starts through the simulator's control API and
// the run finishes. One real minute: this file runs alongside the rest of the suite.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { jest } from '@jest/globals';
import { allocationsOf, type Harness, simpleJob, startHarness, waitAllRunning } from '../engine/harness';
import { E2E_ADDR } from '../sim/helpers/target';
import { normalise } from './run-cli';

jest.setTimeout(150_000);
const BIN = new URL('../../bin/nomad-restart.js', import.meta.url).pathname;
/** Simulated ms a placed allocation stays pending (a day; 864 real s at the harness's scale). */
const ALLOC_START_MS = 86_400_000;
/** How long the test waits for the first Still waiting line before giving up on it. */
const GIVE_UP_MS = 90_000;

/** The command as a subprocess whose stdout lines are timed as they arrive. */
function startCli(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: 'UTC', ...env },
  });
  const arrived: { line: string; at: number }[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stdout += text;
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) arrived.push({ line: normalise(line), at: Date.now() });
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdin.end();
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: normalise(stdout), stderr: normalise(stderr) })),
  );
  /** Resolves with the arrival time (ms) of the first line equal to `line`, or `undefined` after `timeoutMs`. */
  const lineAt = (line: string, timeoutMs: number) =>
    new Promise<number | undefined>((resolve) => {
      const check = () => {
        const found = arrived.find((a) => a.line === line);
        if (found === undefined) return;
        done(found.at);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (at: number | undefined) => {
        clearTimeout(timer);
        listeners.delete(check);
        resolve(at);
      };
      listeners.add(check);
      check();
    });
  return { child, exited, lineAt };
}

if (E2E_ADDR) {
  console.log(
    `not run against ${E2E_ADDR}: scenario 5 holds a replacement pending through the simulator control API`,
  );
} else {
  describe('nomad-restart with a replacement pending for over a minute (scenario 5)', () => {
    let h: Harness;
    let cli: ReturnType<typeof startCli> | undefined;
    afterAll(async () => {
      if (cli && cli.child.exitCode === null) cli.child.kill();
      await h.close();
    });

    it('prints Still waiting at 60 s while waiting, then finishes once the replacement runs', async () => {
      // Arrange
      h = await startHarness({ jobs: [simpleJob('web', 'service', 1)] }, { allocStartMs: ALLOC_START_MS });
      await waitAllRunning(h, 'web', 1);
      const original = allocationsOf(h, 'web')[0]?.ID ?? '';
      const orig = original.slice(0, 8);

      // Act
      cli = startCli(['-yes', '-reschedule', 'web'], { NOMAD_ADDR: h.sim.address });
      const rescheduledAt = await cli.lineAt(
        `    <ts>: Rescheduling allocation "${orig}" for group "group1"`,
        30_000,
      );
      const stillWaitingAt = await cli.lineAt(
        `    <ts>: Still waiting for allocation "${orig}" to be replaced`,
        GIVE_UP_MS,
      );
      const replacement = h.sim.control.state().allocation(original)?.NextAllocation ?? '';
      const replacementStatus = h.sim.control.state().allocation(replacement)?.ClientStatus;
      // Let the replacement run so the command finishes (or, if there is none, stop the command).
      if (replacementStatus === 'pending') h.sim.control.startPendingAllocation(replacement);
      else cli.child.kill();
      const result = await cli.exited;

      // Assert: the line came 60 s into the watch, while the replacement was still pending.
      expect(rescheduledAt).toBeDefined();
      expect(stillWaitingAt).toBeDefined();
      const elapsed = (stillWaitingAt ?? 0) - (rescheduledAt ?? 0);
      expect(elapsed).toBeGreaterThanOrEqual(59_500);
      expect(elapsed).toBeLessThan(63_000);
      expect(replacementStatus).toBe('pending');
      const next = replacement.slice(0, 8);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')).toEqual([
        '==> <ts>: Restarting 1 allocation',
        `    <ts>: Rescheduling allocation "${orig}" for group "group1"`,
        `    <ts>: Allocation "${orig}" replaced by "${next}", waiting for "${next}" to start running`,
        `    <ts>: Still waiting for allocation "${orig}" to be replaced`,
        `    <ts>: Allocation "${next}" is "running"`,
        '==> <ts>: Job restart finished',
        '',
        'Job restarted successfully!',
        '',
      ]);
      expect(result.stderr).toBe('');
    });
  });
}
