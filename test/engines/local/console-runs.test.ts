/**
 * Scenario: executions started the way a person starts one in the Step Functions console, with
 * a hand-written input, run through the synthesized workflow, the local engine and the real
 * handlers against the simulator. `{"job": "web"}` alone runs with Nomad's defaults to an output
 * a person can read (outcome, counts with the skipped ones by reason, times, the summary lines);
 * a run with errors fails with that summary, Nomad's error list included, as its cause; a
 * scheduled input whose job was deleted since ends in JobNotFound with Nomad's message, no
 * stack trace; bad input ends in InvalidInput before anything is touched.
 */

import type { RunSummary } from '../../../lib/restart/run-summary';
import { FlowStates, TaskStates } from '../../../lib/workflow/state-names';
import {
  allocationsOf,
  type Harness,
  harnessPerTest,
  refuseFirstRestart,
  simpleJob,
} from '../../steps/helpers/harness';
import { runWorkflowInput } from './helpers/workflow-harness';

const RESTARTS = 'PUT /v1/client/allocation/:id/restart';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const harness = harnessPerTest();

async function cluster(count: number): Promise<Harness> {
  return await harness.startRunning(simpleJob('web', 'service', count));
}

describe('a console-started execution', () => {
  it('runs {"job": "web"} alone to an output a person can read', async () => {
    // Arrange: one allocation was stopped by hand (its replacement runs): it is skipped.
    const target = await cluster(3);
    const [stopped] = allocationsOf(target, 'web');
    await target.client.allocations().stop(stopped?.ID ?? '', {});
    await target.sim.control.waitFor(
      (s) => s.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 3,
    );

    // Act
    const run = await runWorkflowInput(target, { job: 'web' });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.entered.at(-1)).toBe(FlowStates.restartFinished);
    expect(target.sim.control.counters()[RESTARTS]).toBe(3);
    const summary = run.result.output as RunSummary;
    expect(summary).toMatchObject({
      outcome: 'succeeded',
      jobId: 'web',
      namespace: 'default',
      restarted: 3,
      failed: 0,
      allocations: {
        mode: 'restart',
        planned: 3,
        restarted: 3,
        rescheduled: 0,
        failed: 0,
        notReached: 0,
        skipped: { notRunning: 1 },
      },
      window: null,
      lockedBy: null,
      schedule: null,
      errorText: '',
    });
    expect(summary.startedAt).toMatch(RFC3339);
    expect(summary.finishedAt).toMatch(RFC3339);
    expect(Date.parse(summary.finishedAt)).toBeGreaterThanOrEqual(Date.parse(summary.startedAt ?? ''));
    expect(summary.duration).toMatch(/^\d+s$/);
    expect(summary.lines).toEqual([
      'Restart of job "web" in namespace "default": succeeded',
      'Allocations: 3 planned, 3 restarted, 0 failed',
      'Skipped: 1 not running',
      `Started ${summary.startedAt}, finished ${summary.finishedAt}, took ${summary.duration}`,
    ]);
    expect(summary.text).toBe(summary.lines.join('\n'));
  });

  it("fails a run with errors with its summary as the cause, Nomad's error list included", async () => {
    // Arrange: the first in-place restart is refused.
    const target = await cluster(2);
    refuseFirstRestart(target, 'nope');

    // Act
    const run = await runWorkflowInput(target, { job: 'web', yes: true });

    // Assert
    expect(run.result).toMatchObject({ status: 'FAILED', error: 'RestartFailed' });
    const cause = (run.result.cause ?? '').split('\n');
    expect(cause.slice(0, 2)).toEqual([
      'Restart of job "web" in namespace "default": finished with errors',
      'Allocations: 2 planned, 1 restarted, 1 failed',
    ]);
    expect(cause.slice(-2)).toEqual([
      '1 error occurred while restarting job:',
      expect.stringMatching(
        /^\* Error restarting allocation "[0-9a-f]{8}": Unexpected response code: 400 \(nope\)$/,
      ),
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('ends a scheduled run whose job was deleted since in JobNotFound, with no stack trace', async () => {
    // Arrange
    const target = await cluster(1);

    // Act
    const run = await runWorkflowInput(target, {
      job: 'gone',
      yes: true,
      trigger: 'schedule',
      scheduleName: 'nightly-gone',
      scheduledTime: '2026-11-29T02:00:00Z',
    });

    // Assert
    expect(run.result).toMatchObject({
      status: 'FAILED',
      error: 'JobNotFound',
      cause: 'No job(s) with prefix or ID "gone" found',
    });
    expect(run.entered).not.toContain(TaskStates.lockJob);
  });

  it('ends bad input in InvalidInput with the reason, before Nomad is called', async () => {
    // Arrange
    const target = await cluster(1);
    target.sim.control.resetCounters();

    // Act
    const run = await runWorkflowInput(target, { job: 'web', windowEnd: 'Sunday 05:00' });

    // Assert
    expect(run.result).toMatchObject({
      status: 'FAILED',
      error: 'InvalidInput',
      cause:
        'Invalid input field "windowEnd": got "Sunday 05:00", expected an RFC 3339 time with a zone, e.g. "2026-11-29T05:00:00+01:00" (string)',
    });
    expect(target.sim.control.requestLog()).toEqual([]);
  });
});
