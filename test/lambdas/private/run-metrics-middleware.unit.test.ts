/**
 * The run's metrics leave a handler as EMF lines on stdout on Lambda only: the local engine runs
 * the same handlers at a terminal, whose stdout is Nomad's lines.
 */
import type { Context } from 'aws-lambda';
import { stepHandler } from '../../../lambdas/private/step-handler';
import type { ProgressEvent } from '../../../lib/restart/events';
import { withLocalInvocation } from '../../../lib/steps/kit/local-invocation';
import { parseEmf } from '../helpers/emf';
import { captureOutput, lambdaContext, plannedState } from '../helpers/fixtures';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
// As the Lambda runtime sets it: outside Lambda no EMF line is printed.
process.env['AWS_LAMBDA_FUNCTION_NAME'] = 'nomad-restart-test';

const batchFinished: ProgressEvent = {
  type: 'batch-finished',
  time: 1,
  batchNumber: 1,
  batches: 3,
  restarted: 2,
  failed: 0,
  durationMs: 1_500,
};

/** A handler whose step returned a state carrying `events`. */
const handlerReturning = (events: ProgressEvent[]) =>
  stepHandler(async () => plannedState({ events }), { state: 'restart-batch' });

const emfLines = (output: string) => output.split('\n').filter((line) => line.includes('"_aws"'));

describe('runMetricsMiddleware', () => {
  it("prints one EMF line of the step's run-level events on Lambda", async () => {
    // Act
    const { output } = await captureOutput(() => handlerReturning([batchFinished])({}, lambdaContext()));

    // Assert
    const metrics = parseEmf(emfLines(output));
    expect(emfLines(output)).toHaveLength(1);
    expect(metrics.find((m) => m.name === 'AllocationsRestarted')).toMatchObject({
      namespace: 'NomadRestart',
      value: 2,
      line: { jobId: 'web', runId: 'arn:exec:run-1' },
    });
  });

  it('prints nothing outside Lambda (no AWS_LAMBDA_FUNCTION_NAME), whatever runs the handler', async () => {
    // Arrange
    const functionName = process.env['AWS_LAMBDA_FUNCTION_NAME'];
    delete process.env['AWS_LAMBDA_FUNCTION_NAME'];

    // Act
    const { output } = await captureOutput(() =>
      handlerReturning([batchFinished])({}, lambdaContext()),
    ).finally(() => {
      process.env['AWS_LAMBDA_FUNCTION_NAME'] = functionName;
    });

    // Assert
    expect(emfLines(output)).toEqual([]);
  });

  it('prints nothing for a step without run-level events', async () => {
    // Act
    const { output } = await captureOutput(() =>
      handlerReturning([{ type: 'restart-started', time: 1, count: 2 }])({}, lambdaContext()),
    );

    // Assert
    expect(emfLines(output)).toEqual([]);
  });

  it('prints nothing at a terminal, where stdout is Nomad’s lines', async () => {
    // Arrange
    const local: Context = withLocalInvocation(lambdaContext(), { liveEvents: () => {} });

    // Act
    const { output } = await captureOutput(() => handlerReturning([batchFinished])({}, local));

    // Assert
    expect(output).toBe('');
  });

  it("hands a local run's lines to its metricLines sink instead", async () => {
    // Arrange
    const captured: string[] = [];
    const local = withLocalInvocation(lambdaContext(), {
      liveEvents: () => {},
      metricLines: (line) => captured.push(line),
    });

    // Act
    const { output } = await captureOutput(() => handlerReturning([batchFinished])({}, local));

    // Assert
    expect(output).toBe('');
    expect(parseEmf(captured).map((m) => m.name)).toEqual([
      'AllocationsRestarted',
      'AllocationsFailed',
      'BatchDuration',
    ]);
  });
});
