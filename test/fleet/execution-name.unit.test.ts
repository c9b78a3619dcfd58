import fc from 'fast-check';
import { executionName } from '../../lib/fleet/execution-name';

/** Step Functions' name rule, kept to the characters safe in logs and ARNs. */
const NAME_RE = /^[A-Za-z0-9_-]{1,80}$/;

describe('execution-name', () => {
  describe('executionName', () => {
    it('reads job first, then namespace, then a digest', () => {
      // Arrange / Act
      const name = executionName('weekly-20261207', 'prod', 'web');

      // Assert
      expect(name).toMatch(/^web-prod-[0-9a-f]{16}$/);
    });

    it('is the same for the same run and job, and differs across runs, namespaces and jobs', () => {
      // Arrange / Act
      const name = executionName('run-1', 'prod', 'web');

      // Assert
      expect(executionName('run-1', 'prod', 'web')).toBe(name);
      expect(executionName('run-2', 'prod', 'web')).not.toBe(name);
      expect(executionName('run-1', 'staging', 'web')).not.toBe(name);
      expect(executionName('run-1', 'prod', 'web2')).not.toBe(name);
    });

    it('keeps two job IDs apart that read alike once unsafe characters are replaced', () => {
      // Arrange / Act
      const slash = executionName('run-1', 'prod', 'team/web');
      const dash = executionName('run-1', 'prod', 'team-web');

      // Assert
      expect(slash.slice(0, 14)).toBe(dash.slice(0, 14));
      expect(slash).not.toBe(dash);
    });

    it('is a valid execution name for any job ID and namespace', () => {
      fc.assert(
        fc.property(
          fc.string({ maxLength: 200 }),
          fc.string({ maxLength: 200 }),
          fc.string(),
          (job, ns, run) => {
            // Act
            const name = executionName(run, ns, job);

            // Assert
            expect(name).toMatch(NAME_RE);
          },
        ),
      );
    });
  });
});
