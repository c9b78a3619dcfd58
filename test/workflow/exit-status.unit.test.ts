import type { StaleWhy } from '../../lib/restart/events';
import type { FreshnessOfRun } from '../../lib/restart/freshness/lines';
import { causeMessage } from '../../lib/workflow/errors';
import { type ExecutionEnding, exitStatusOf, fleetExitStatusOf } from '../../lib/workflow/exit-status';

const EXEC = 'arn:aws:states:eu-west-1:123456789012:execution:m:e1';
const NOT_REACHED = { allocationId: 'a1', why: 'not-reached' } as const;
const LOCKED = { allocationId: 'a1', why: 'locked' } as const;

/** A summary's freshness field with `stale` (times and counts do not decide the exit code). */
const fresh = (stale: readonly { allocationId: string; why: StaleWhy }[]): FreshnessOfRun => ({
  startedBefore: '2026-12-07T10:00:00.000Z',
  checked: 1,
  restarted: 1 - stale.length,
  alreadyFresh: 0,
  stale,
});

describe('exit status', () => {
  describe('causeMessage', () => {
    it('keeps only the message of a Lambda error', () => {
      // Arrange
      const cause = JSON.stringify({
        errorType: 'JobNotFoundError',
        errorMessage: 'No job(s) with prefix or ID "exa" found',
        trace: ['JobNotFoundError: No job(s)', '    at plan (/var/task/index.mjs:1:1)'],
      });

      // Act
      const message = causeMessage(cause);

      // Assert
      expect(message).toBe('No job(s) with prefix or ID "exa" found');
    });

    it('keeps a plain cause as it is', () => {
      // Arrange
      const cause = 'Invalid -batch-size value "0": batch size must be greater than zero';

      // Act
      const message = causeMessage(cause);

      // Assert
      expect(message).toBe(cause);
    });
  });

  describe('exitStatusOf', () => {
    const failed = (error: string, cause = ''): ExecutionEnding => ({ status: 'FAILED', error, cause });
    it.each<{ name: string; end: ExecutionEnding; stoppedByUs?: boolean; exitCode: 0 | 1; message?: string }>(
      [
        {
          name: 'a success',
          end: { status: 'SUCCEEDED', output: { outcome: 'succeeded', errorText: '' } },
          exitCode: 0,
        },
        {
          name: 'a "no" answer',
          end: { status: 'SUCCEEDED', output: { outcome: 'canceled', errorText: '' } },
          exitCode: 0,
        },
        {
          name: 'a run with errors',
          end: { status: 'SUCCEEDED', output: { outcome: 'failed', errorText: 'x' } },
          exitCode: 1,
        },
        {
          name: 'a run that left an allocation stale (startedBefore)',
          end: {
            status: 'SUCCEEDED',
            output: { outcome: 'stopped-at-window-end', errorText: '', freshness: fresh([NOT_REACHED]) },
          },
          exitCode: 1,
        },
        {
          name: 'a run that left every allocation in scope fresh',
          end: { status: 'SUCCEEDED', output: { outcome: 'succeeded', errorText: '', freshness: fresh([]) } },
          exitCode: 0,
        },
        {
          name: 'a scheduled run skipped for the lock, its allocations stale only as locked',
          end: {
            status: 'SUCCEEDED',
            output: { outcome: 'skipped-job-locked', errorText: '', freshness: fresh([LOCKED]) },
          },
          exitCode: 0,
        },
        { name: 'a canceled run', end: failed('Canceled', 'Canceling job restart process'), exitCode: 0 },
        { name: 'RestartFailed (already printed)', end: failed('RestartFailed', 'errors'), exitCode: 1 },
        {
          name: 'UnrecoverableError (already printed)',
          end: failed('UnrecoverableError', 'errors'),
          exitCode: 1,
        },
        {
          name: 'JobNotFound',
          end: failed(
            'JobNotFound',
            '{"errorType":"JobNotFoundError","errorMessage":"No job(s) with prefix or ID \\"x\\" found"}',
          ),
          exitCode: 1,
          message: 'No job(s) with prefix or ID "x" found',
        },
        {
          name: 'JobLocked',
          end: failed('JobLocked', 'Job "default/x" is being restarted'),
          exitCode: 1,
          message: 'Job "default/x" is being restarted',
        },
        {
          name: 'InvalidInput without a cause',
          end: failed('InvalidInput'),
          exitCode: 1,
          message: 'InvalidInput',
        },
        {
          name: 'an engine error',
          end: failed('States.Runtime', 'boom'),
          exitCode: 1,
          message: 'Restart failed: States.Runtime: boom',
        },
        {
          name: 'an abort by someone else',
          end: { status: 'ABORTED', error: '', cause: '' },
          exitCode: 1,
          message: `Restart aborted: execution "${EXEC}" was stopped`,
        },
        {
          name: 'an abort by this command',
          end: { status: 'ABORTED', error: 'Canceled', cause: 'x' },
          stoppedByUs: true,
          exitCode: 0,
        },
        {
          name: 'a timeout',
          end: { status: 'TIMED_OUT', error: '', cause: '' },
          exitCode: 1,
          message: `Restart timed out: execution "${EXEC}" ran past its time limit`,
        },
      ],
    )('maps $name to $exitCode', ({ end, stoppedByUs, exitCode, message }) => {
      // Arrange (the rows)

      // Act
      const status = exitStatusOf(end, { executionArn: EXEC, stoppedByUs: stoppedByUs ?? false });

      // Assert
      expect(status).toEqual({ exitCode, message });
    });
  });

  describe('fleetExitStatusOf', () => {
    const failed = (error: string, cause = ''): ExecutionEnding => ({ status: 'FAILED', error, cause });
    it.each<{ name: string; end: ExecutionEnding; stoppedByUs?: boolean; exitCode: 0 | 1; message?: string }>(
      [
        {
          name: 'a fleet that finished',
          end: { status: 'SUCCEEDED', output: { outcome: 'finished' } },
          exitCode: 0,
        },
        {
          name: 'a summary with errors that still succeeded',
          end: { status: 'SUCCEEDED', output: { outcome: 'finished-with-errors' } },
          exitCode: 1,
        },
        {
          name: 'the fail state of a fleet with errors (its block said why)',
          end: failed(
            'FleetRestartFinishedWithErrors',
            'Fleet restart finished with errors: 0 jobs restarted, 1 failed, 0 skipped',
          ),
          exitCode: 1,
        },
        {
          name: "bad input, in Nomad's words",
          end: failed('InvalidInput', 'Invalid -max-jobs value "0": must be greater than zero'),
          exitCode: 1,
          message: 'Invalid -max-jobs value "0": must be greater than zero',
        },
        {
          name: 'any other failure',
          end: failed('States.Runtime', 'boom'),
          exitCode: 1,
          message: 'Fleet restart failed: States.Runtime: boom',
        },
        {
          name: 'an abort by someone else',
          end: { status: 'ABORTED', error: '', cause: '' },
          exitCode: 1,
          message: `Fleet restart aborted: execution "${EXEC}" was stopped`,
        },
        {
          name: 'an abort by this command',
          end: { status: 'ABORTED', error: '', cause: '' },
          stoppedByUs: true,
          exitCode: 0,
        },
        {
          name: 'a timeout',
          end: { status: 'TIMED_OUT', error: '', cause: '' },
          exitCode: 1,
          message: `Fleet restart timed out: execution "${EXEC}" ran past its time limit`,
        },
      ],
    )('maps $name to $exitCode', ({ end, stoppedByUs, exitCode, message }) => {
      // Act
      const status = fleetExitStatusOf(end, { executionArn: EXEC, stoppedByUs: stoppedByUs ?? false });

      // Assert
      expect(status).toEqual({ exitCode, message });
    });
  });
});
