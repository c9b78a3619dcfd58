/**
 * The names continued executions get (continuation-name.ts): within Step Functions' rules for
 * every run and job whatever they hold, the same on every try of one hand-over, readable, and
 * never shared by two runs.
 */
import fc from 'fast-check';
import {
  continuationExecutionName,
  continuationNamePrefix,
  EXECUTION_NAME_RE,
} from '../../lib/workflow/continuation-name';

const ARN = 'arn:aws:states:eu-west-1:123456789012:execution:NomadRestart-Restart';

describe('continuationExecutionName', () => {
  it('keeps to 80 characters of letters, digits, "-" and "_" whatever the run and job hold', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 2, max: 999_999 }), (runId, job, n) => {
        // Act
        const name = continuationExecutionName(runId, job, n);

        // Assert
        expect(name).toMatch(EXECUTION_NAME_RE);
      }),
    );
  });

  it('gives the same name on every try of one hand-over', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: 2, max: 999_999 }), (runId, job, n) => {
        // Act
        const tries = [1, 2].map(() => continuationExecutionName(runId, job, n));

        // Assert
        expect(tries[0]).toBe(tries[1]);
      }),
    );
  });

  it('never gives two runs the same name, even when their readable parts are cut alike', () => {
    // Arrange: two first executions whose names differ only past what the name keeps.
    const long = 'x'.repeat(70);
    const runs = [`${ARN}:${long}-a`, `${ARN}:${long}-b`];

    // Act
    const names = runs.map((runId) => continuationExecutionName(runId, 'web', 2));

    // Assert
    expect(names[0]).not.toBe(names[1]);
  });

  it.each([
    {
      name: 'a CLI run, whose first name starts with the job',
      runId: `${ARN}:web-20261124T100000Z-3f9c0a1b2c3d4e5f`,
      job: 'web',
      expected: /^web-20261124T100000Z-3f9c0a1b2c3d4e5f-[0-9a-f]{12}-2$/,
    },
    {
      name: 'a console run named by hand',
      runId: `${ARN}:nightly`,
      job: 'web',
      expected: /^web-nightly-[0-9a-f]{12}-2$/,
    },
    {
      name: 'a job ID with characters a name may not hold',
      runId: `${ARN}:0b7e`,
      job: 'batch/web.v2',
      expected: /^batch-web-v2-0b7e-[0-9a-f]{12}-2$/,
    },
  ])('shows the job and the first execution for $name', ({ runId, job, expected }) => {
    // Act
    const name = continuationExecutionName(runId, job, 2);

    // Assert
    expect(name).toMatch(expected);
    expect(name).toBe(`${continuationNamePrefix(runId, job)}-2`);
  });
});
