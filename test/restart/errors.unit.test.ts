import type { JobListStub } from '../../lib/nomad/types';
import {
  AllocationRestartError,
  AllocationStepError,
  formatAllocMetrics,
  isBatchUnrecoverable,
  PlacementFailureError,
  ReplacementTimeoutError,
  TaskRestartError,
  toBatchError,
  wrapAllocationErrors,
} from '../../lib/restart/allocation-errors';
import {
  DeploymentActiveError,
  JobNotFoundError,
  MultipleJobsMatchedError,
  NomadQueryError,
  RescheduleNotAllowedError,
} from '../../lib/restart/errors';
import { formatPrefixMatches } from '../../lib/restart/prefix-matches';

const alloc = '1a2b3c4d-0000-1111-2222-333333333333';
const http500 = new Error('Unexpected response code: 500 (Task not running)');

describe('errors', () => {
  describe('messages', () => {
    it.each([
      [
        'a task failure wrapped per allocation',
        new AllocationRestartError({
          allocationId: alloc,
          cause: new TaskRestartError('prestart', http500),
          verbose: false,
        }),
        'Error restarting allocation "1a2b3c4d": Failed to restart task "prestart": Unexpected response code: 500 (Task not running)',
      ],
      [
        'a full ID when verbose',
        new AllocationRestartError({ allocationId: alloc, cause: http500, verbose: true }),
        `Error restarting allocation "${alloc}": Unexpected response code: 500 (Task not running)`,
      ],
      [
        'an active deployment',
        new DeploymentActiveError({ deploymentId: 'dddddddd-1', status: 'running', verbose: false }),
        'Deployment "dddddddd" is "running"',
      ],
      [
        'a sysbatch job',
        new RescheduleNotAllowedError('sysbatch'),
        'Jobs of type "sysbatch" are not allowed to be rescheduled.',
      ],
      [
        'a job without type',
        new RescheduleNotAllowedError(undefined),
        'Jobs of type "" are not allowed to be rescheduled.',
      ],
      ['no job', new JobNotFoundError('tes'), 'No job(s) with prefix or ID "tes" found'],
      [
        'a job query',
        new NomadQueryError('job', 'tes', new Error('Unexpected response code: 404 (job not found)')),
        'Error querying job "tes": Unexpected response code: 404 (job not found)',
      ],
      [
        'a versions query',
        new NomadQueryError('versions', 'j', new Error('x')),
        'Error retrieving versions of job "j": x',
      ],
      [
        'a deployments query',
        new NomadQueryError('deployments', 'j', new Error('x')),
        'Error retrieving deployments for job "j": x',
      ],
      [
        'a stop',
        new AllocationStepError({ step: 'stop', cause: new Error('x'), verbose: false }),
        'Failed to stop allocation: x',
      ],
      [
        'an evaluate (sic)',
        new AllocationStepError({
          step: 'evaluate',
          cause: new Error('Unexpected response code: 403 (Permission denied)'),
          verbose: false,
        }),
        'Failed evaluate job: Unexpected response code: 403 (Permission denied)',
      ],
      [
        'an evaluations watch',
        new AllocationStepError({ step: 'evaluations', jobId: 'j', cause: new Error('x'), verbose: false }),
        'Failed to retrieve evaluations for job "j": x',
      ],
      [
        'an allocation watch',
        new AllocationStepError({
          step: 'allocation',
          allocationId: alloc,
          cause: new Error('x'),
          verbose: false,
        }),
        'Failed to retrieve allocation "1a2b3c4d": x',
      ],
      [
        'a replacement timeout',
        new ReplacementTimeoutError({
          allocationId: alloc,
          timeoutNs: 300e9,
          timeoutText: '5m0s',
          verbose: false,
        }),
        'Allocation "1a2b3c4d" was not replaced within -replacement-timeout=5m0s',
      ],
    ])('words %s like Nomad', (_name, err, expected) => {
      // Assert
      expect(err.message).toBe(expected);
    });

    it('sets stable names and passes the cause', () => {
      // Arrange
      const inner = new TaskRestartError('t', http500);

      // Act
      const err = new AllocationRestartError({ allocationId: alloc, cause: inner, verbose: false });

      // Assert
      expect([err.name, err.kind, inner.name, inner.kind]).toEqual([
        'AllocationRestartError',
        'allocation-restart',
        'TaskRestartError',
        'task-restart',
      ]);
      expect(err.cause).toBe(inner);
      expect(inner.cause).toBe(http500);
    });
  });

  describe('PlacementFailureError', () => {
    it("lists the metric conditions in Nomad's order under the header", () => {
      // Arrange
      const metric = {
        NodesEvaluated: 0,
        NodesAvailable: { dc2: 0, dc1: 3 },
        ClassFiltered: { small: 1 },
        ConstraintFiltered: { 'missing drivers': 2 },
        NodesExhausted: 4,
        ClassExhausted: { large: 5 },
        DimensionExhausted: { memory: 6 },
        QuotaExhausted: ['cpu'],
      };

      // Act
      const err = new PlacementFailureError({
        evalId: 'eeeeeeee-1111',
        group: 'web',
        metric,
        verbose: false,
      });

      // Assert
      expect(err.message).toBe(
        [
          'Evaluation "eeeeeeee" has placement failures for group "web":',
          '    * No nodes were eligible for evaluation',
          '    * No nodes are available in datacenter "dc2"',
          '    * Class "small": 1 nodes excluded by filter',
          '    * Constraint "missing drivers": 2 nodes excluded by filter',
          '    * Resources exhausted on 4 nodes',
          '    * Class "large" exhausted on 5 nodes',
          '    * Dimension "memory" exhausted on 6 nodes',
          '    * Quota limit hit "cpu"',
        ].join('\n'),
      );
    });

    it('prints no line for an evaluated group with nothing to report', () => {
      // Assert
      expect(formatAllocMetrics({ NodesEvaluated: 3 })).toBe('');
    });
  });

  describe('wrapAllocationErrors', () => {
    it('prefixes each task error separately so the list stays flat', () => {
      // Arrange
      const errors = [new TaskRestartError('a', new Error('x')), new TaskRestartError('b', new Error('y'))];

      // Act
      const wrapped = wrapAllocationErrors(alloc, errors, { verbose: false });

      // Assert
      expect(wrapped.map((e) => e.message)).toEqual([
        'Error restarting allocation "1a2b3c4d": Failed to restart task "a": x',
        'Error restarting allocation "1a2b3c4d": Failed to restart task "b": y',
      ]);
    });
  });

  describe('isBatchUnrecoverable', () => {
    const placement = new PlacementFailureError({ evalId: 'e', group: 'g', metric: {}, verbose: false });

    it.each([
      ['no errors', [], false],
      [
        'a 502',
        [
          toBatchError(
            new AllocationRestartError({
              allocationId: alloc,
              cause: new Error('Unexpected response code: 502'),
              verbose: false,
            }),
          ),
        ],
        false,
      ],
      [
        'a wrapped placement failure',
        [toBatchError(new AllocationRestartError({ allocationId: alloc, cause: placement, verbose: false }))],
        true,
      ],
      ['a bare placement failure', [toBatchError(placement)], true],
      [
        'a permission error among others',
        [
          { message: 'x', unrecoverable: false },
          {
            message: 'Failed evaluate job: Unexpected response code: 403 (Permission denied)',
            unrecoverable: false,
          },
        ],
        true,
      ],
      ['a lower-case permission text', [{ message: 'permission denied', unrecoverable: false }], false],
    ])('%s → %s', (_name, errors, expected) => {
      // Assert
      expect(isBatchUnrecoverable(errors)).toBe(expected);
    });

    it('keeps the allocation ID in the serialisable form', () => {
      // Assert
      expect(
        toBatchError(new AllocationRestartError({ allocationId: alloc, cause: placement, verbose: false })),
      ).toEqual({
        message: `Error restarting allocation "1a2b3c4d": ${placement.message}`,
        unrecoverable: true,
        allocationId: alloc,
      });
    });
  });

  describe('MultipleJobsMatchedError', () => {
    const jobs: JobListStub[] = [
      {
        ID: 'example',
        Type: 'service',
        Priority: 50,
        Status: 'running',
        SubmitTime: 1677624058e9,
        JobSummary: { Namespace: 'default' },
      },
      {
        ID: 'example-batch',
        Type: 'batch',
        Periodic: true,
        ParameterizedJob: true,
        Priority: 100,
        Status: 'dead',
        Stop: true,
        SubmitTime: 0,
        JobSummary: { Namespace: 'prod' },
      },
    ];

    it("prints Nomad's columnized table", () => {
      // Arrange
      const table = formatPrefixMatches(jobs, {
        allNamespaces: false,
        truncated: false,
        timeZone: 'America/New_York',
      });

      // Act
      const err = new MultipleJobsMatchedError({ prefix: 'ex', jobIds: jobs.map((j) => j.ID), table });

      // Assert
      expect(err.message).toBe(
        [
          'Prefix "ex" matched multiple jobs',
          '',
          'ID             Type                          Priority  Status          Submit Date',
          'example        service                       50        running         2023-02-28T17:40:58-05:00',
          'example-batch  batch/periodic/parameterized  100       dead (stopped)  <none>',
        ].join('\n'),
      );
    });

    it('adds the namespace column for * and the truncation note for a full page', () => {
      // Arrange / Act
      const table = formatPrefixMatches(jobs.slice(0, 1), {
        allNamespaces: true,
        truncated: true,
        timeZone: 'UTC',
      });

      // Assert
      expect(table).toBe(
        [
          'ID       Namespace  Type     Priority  Status   Submit Date',
          'example  default    service  50        running  2023-02-28T22:40:58Z',
          '(results may be truncated)',
        ].join('\n'),
      );
    });
  });
});
