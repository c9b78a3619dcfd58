import type { FleetJobProblem } from '../../lib/fleet/events';
import { isFleetError, problemText } from '../../lib/fleet/reasons';

const ctx = { maxFailedJobs: 2 };

describe('fleet reasons', () => {
  describe('problemText', () => {
    it.each<{ problem: FleetJobProblem; text: string }>([
      { problem: { kind: 'sysbatch' }, text: 'skipped: sysbatch jobs are not restarted' },
      {
        problem: { kind: 'stopped', status: 'dead' },
        text: 'skipped: the job is not running (status "dead")',
      },
      {
        problem: { kind: 'parameterized' },
        text: 'skipped: a parameterized job has no allocations of its own',
      },
      { problem: { kind: 'periodic' }, text: 'skipped: a periodic job has no allocations of its own' },
      {
        problem: { kind: 'child', parentId: 'nightly' },
        text: 'skipped: dispatched or periodic child of "nightly" (finite batch work)',
      },
      { problem: { kind: 'nothing-in-scope' }, text: 'skipped: no running allocation in scope' },
      {
        problem: {
          kind: 'not-inspectable',
          templates: [
            'template "a" read from a file ("a.tpl")',
            'template "b" nomadVar with a path that is not a literal',
          ],
        },
        text: 'skipped: not inspectable: template "a" read from a file ("a.tpl"); template "b" nomadVar with a path that is not a literal',
      },
      {
        problem: { kind: 'fresh', startedBefore: Date.UTC(2026, 11, 7, 9), allocations: 2 },
        text: 'skipped: every allocation in scope started after 2026-12-07T09:00:00Z',
      },
      { problem: { kind: 'locked', holder: 'execution "x"' }, text: 'locked by execution "x"' },
      {
        problem: { kind: 'not-reached', why: 'max-failed-jobs' },
        text: 'not reached: the failure budget (-max-failed-jobs 2) ran out',
      },
      {
        problem: { kind: 'not-reached', why: 'window-ended' },
        text: 'not reached: the maintenance window ended',
      },
      { problem: { kind: 'not-reached', why: 'stopped' }, text: 'not reached: the fleet run was stopped' },
      { problem: { kind: 'failed', error: 'RestartFailed', message: 'boom' }, text: 'failed: boom' },
      {
        problem: { kind: 'window-ended-midway', done: 3, of: 4 },
        text: 'stopped at the end of the maintenance window: 3 of 4 allocations done',
      },
      { problem: { kind: 'canceled', message: 'stopped' }, text: 'canceled: stopped' },
    ])('words $problem.kind as "$text"', ({ problem, text }) => {
      // Act / Assert
      expect(problemText(problem, ctx)).toBe(text);
    });
  });

  describe('isFleetError', () => {
    it.each<{ problem: FleetJobProblem; scheduled: boolean; error: boolean }>([
      { problem: { kind: 'sysbatch' }, scheduled: false, error: false },
      { problem: { kind: 'stopped', status: 'dead' }, scheduled: false, error: false },
      { problem: { kind: 'nothing-in-scope' }, scheduled: false, error: false },
      { problem: { kind: 'child', parentId: 'p' }, scheduled: false, error: false },
      { problem: { kind: 'fresh', startedBefore: 0, allocations: 1 }, scheduled: false, error: false },
      { problem: { kind: 'not-inspectable', templates: ['t'] }, scheduled: false, error: false },
      { problem: { kind: 'locked', holder: 'h' }, scheduled: false, error: true },
      { problem: { kind: 'locked', holder: 'h' }, scheduled: true, error: false },
      { problem: { kind: 'not-reached', why: 'window-ended' }, scheduled: true, error: true },
      { problem: { kind: 'failed', error: 'e', message: 'm' }, scheduled: true, error: true },
    ])('says $problem.kind (scheduled: $scheduled) is an error: $error', ({ problem, scheduled, error }) => {
      // Act / Assert
      expect(isFleetError(problem, { scheduled })).toBe(error);
    });
  });
});
