import { parsePathPattern } from '../../lib/fleet/consumers';
import { listingsFor, nanosToMs, staleTime } from '../../lib/fleet/stale';

describe('stale', () => {
  describe('staleTime', () => {
    const listed = [
      { namespace: 'default', path: 'nomad/jobs/shared/db', modifiedAt: 1_000 },
      { namespace: 'default', path: 'nomad/jobs/shared/cache', modifiedAt: 3_000 },
      { namespace: 'default', path: 'nomad/jobs/shared/db2', modifiedAt: 5_000 },
      { namespace: 'payments', path: 'nomad/jobs/shared/db', modifiedAt: 7_000 },
    ];

    it.each([
      {
        name: 'takes the one variable an exact path selects, not its namesakes under the prefix',
        reads: [{ path: 'nomad/jobs/shared', prefix: true }],
        patterns: ['nomad/jobs/shared/db'],
        expected: 1_000,
      },
      {
        name: 'takes the newest the job reads under a * path',
        reads: [{ path: 'nomad/jobs/shared', prefix: true }],
        patterns: ['nomad/jobs/shared/*'],
        expected: 5_000,
      },
      {
        name: 'leaves out a variable the job does not read',
        reads: [
          { path: 'nomad/jobs/shared/db', prefix: false },
          { path: 'nomad/jobs/shared/cache', prefix: false },
        ],
        patterns: ['nomad/jobs/shared/*'],
        expected: 3_000,
      },
      {
        name: 'reads in the namespace a read names',
        reads: [{ path: 'nomad/jobs/shared/db', prefix: false, namespace: 'payments' }],
        patterns: ['nomad/jobs/shared/db'],
        expected: 7_000,
      },
      {
        name: 'has no time when the job reads none of the listed variables',
        reads: [{ path: 'nomad/jobs/other', prefix: false }],
        patterns: ['nomad/jobs/*'],
        expected: undefined,
      },
    ])('$name', ({ reads, patterns, expected }) => {
      // Act
      const time = staleTime('default', reads, patterns.map(parsePathPattern), listed);

      // Assert
      expect(time).toBe(expected);
    });
  });

  describe('listingsFor', () => {
    it('lists each path in each namespace the reads name', () => {
      // Arrange
      const reads = [
        { path: 'a', prefix: false },
        { path: 'b', prefix: false, namespace: 'payments' },
      ];

      // Act
      const listings = listingsFor('default', reads, [parsePathPattern('a')]);

      // Assert
      expect(listings).toEqual([
        { namespace: 'default', pattern: { path: 'a', prefix: false } },
        { namespace: 'payments', pattern: { path: 'a', prefix: false } },
      ]);
    });
  });

  describe('nanosToMs', () => {
    it('rounds up, so a start in the same millisecond as the change counts as before it', () => {
      // Act / Assert
      expect(nanosToMs(1_765_000_000_123_400_000)).toBe(1_765_000_000_124);
    });
  });
});
