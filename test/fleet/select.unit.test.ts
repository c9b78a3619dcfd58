import { classifyJob } from '../../lib/fleet/select';

describe('select', () => {
  describe('classifyJob', () => {
    const service = { ID: 'web', Namespace: 'prod', Type: 'service', Status: 'running' };

    it.each([
      {
        name: 'restarts a running service with allocations in scope',
        job: service,
        running: 3,
        expected: { kind: 'restart', allocations: 3 },
      },
      {
        name: 'skips a dispatched child, naming its parent',
        job: { ...service, ID: 'report/dispatch-1700000000-ab12', ParentID: 'report', Type: 'batch' },
        running: 1,
        expected: { kind: 'skip', reason: { kind: 'child', parentId: 'report' } },
      },
      {
        name: 'skips a periodic parent',
        job: { ...service, ID: 'nightly', Type: 'batch', Periodic: true },
        running: 0,
        expected: { kind: 'skip', reason: { kind: 'periodic' } },
      },
      {
        name: 'skips a parameterized parent',
        job: { ...service, ID: 'report', Type: 'batch', ParameterizedJob: true },
        running: 0,
        expected: { kind: 'skip', reason: { kind: 'parameterized' } },
      },
      {
        name: 'skips sysbatch even with allocations running',
        job: { ...service, Type: 'sysbatch' },
        running: 4,
        expected: { kind: 'skip', reason: { kind: 'sysbatch' } },
      },
      {
        name: 'skips a job stopped by its user',
        job: { ...service, Stop: true, Status: 'running' },
        running: 2,
        expected: { kind: 'skip', reason: { kind: 'stopped', status: 'stopped' } },
      },
      {
        name: 'skips a dead job',
        job: { ...service, Status: 'dead' },
        running: 0,
        expected: { kind: 'skip', reason: { kind: 'stopped', status: 'dead' } },
      },
      {
        name: 'skips a job with nothing running in scope',
        job: service,
        running: 0,
        expected: { kind: 'skip', reason: { kind: 'nothing-in-scope' } },
      },
      {
        name: 'reads a stub without a type or status as a job to restart',
        job: { ID: 'bare' },
        running: 1,
        expected: { kind: 'restart', allocations: 1 },
      },
    ])('$name', ({ job, running, expected }) => {
      // Arrange / Act
      const verdict = classifyJob(job, running);

      // Assert
      expect(verdict).toEqual(expected);
    });
  });
});
