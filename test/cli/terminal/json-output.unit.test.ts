// Scenario: `-output json` lines: an event with the run's context, a fatal error as an event on
// stdout, and a request Nomad has not answered.
import { progressEventLine, requestSlowLine, withJsonErrors } from '../../../lib/cli/terminal/json-output';
import { createFormatter } from '../../../lib/restart/format';

describe('progressEventLine', () => {
  it('adds the job, namespace, batch and totals to the event', () => {
    // Arrange
    const context = {
      job: 'web',
      namespace: 'prod',
      batch: 2,
      batches: 3,
      totals: { restarted: 1, failed: 0 },
    };

    // Act
    const line = progressEventLine({ type: 'waiting', time: 5, waitMs: 2_000 }, context);

    // Assert
    expect(line.stream).toBe('stdout');
    expect(JSON.parse(line.text)).toEqual({
      type: 'waiting',
      time: 5,
      waitMs: 2_000,
      job: 'web',
      namespace: 'prod',
      batch: 2,
      batches: 3,
      totals: { restarted: 1, failed: 0 },
    });
  });
});

describe('withJsonErrors', () => {
  it('writes an error as one JSON event on stdout, naming the job as given', () => {
    // Arrange
    const formatter = withJsonErrors(
      createFormatter({ verbose: false, color: false }),
      { job: 'nope', namespace: 'prod' },
      () => 42,
    );

    // Act
    const line = formatter.renderError('No job(s) with prefix or ID "nope" found');

    // Assert
    expect(line.stream).toBe('stdout');
    expect(JSON.parse(line.text)).toEqual({
      type: 'error',
      time: 42,
      message: 'No job(s) with prefix or ID "nope" found',
      job: 'nope',
      namespace: 'prod',
    });
  });
});

describe('requestSlowLine', () => {
  it('names the request and when it was sent', () => {
    // Arrange
    const slow = { request: 'GET http://127.0.0.1:4646/v1/job/web', sentAt: 1_000 };

    // Act
    const line = requestSlowLine(slow, 11_000);

    // Assert
    expect(JSON.parse(line.text)).toEqual({
      type: 'request-slow',
      time: 11_000,
      request: 'GET http://127.0.0.1:4646/v1/job/web',
      sentAt: 1_000,
    });
  });
});
