/**
 * Scenario: while `-engine=aws` follows a run, AWS throttles every history read for 60 s (or
 * the network fails: DNS, routes, resets, timeouts), and the run goes on in AWS meanwhile: its
 * second and third batches and its end happen during the outage. The follower never gives up
 * while the execution may still run: it is still following at 65 s, says once on stderr that
 * AWS is throttling (or unreachable) and that the restart goes on, and when AWS answers again it
 * prints the lines where they stopped, each once and in order, and exits with the run's code.
 * Time is the fake clock of Jest's timers: the outage lasts 60 s of it, the command's backoff
 * sleeps on it.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { type RunRestartOnAwsResult, runRestartOnAws } from '../../../lib/engines/aws';
import { type FakeAwsError, FakeStepFunctions } from './helpers/fake-step-functions';
import {
  batchRestarted,
  batchSettled,
  finishing,
  options,
  planned,
  recordingRequest,
} from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const OUTAGE_MS = 60_000;

/** What the outage answers, by the attempt that meets it. */
type OutageErrors = (nth: number) => FakeAwsError;

async function followThroughOutage(errors: OutageErrors) {
  // Arrange: the run plans and restarts batch 1; then reads fail for 60 s while it finishes.
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  fake.onStart = (execution) => fake.append(execution.arn, [...planned(), ...batchRestarted(1)]);
  const {
    request,
    emitted,
    errors: printed,
  } = recordingRequest({
    options: { ...options, batchWait: { kind: 'duration', ns: 0 } },
  });
  let ended: RunRestartOnAwsResult | undefined;
  void runRestartOnAws(request).then((result) => {
    ended = result;
  });
  await jest.advanceTimersByTimeAsync(3_000);
  const [arn = ''] = fake.executions.keys();
  const linesBefore = emitted.length;
  const outageEnds = Date.now() + OUTAGE_MS;
  let failed = 0;
  fake.faults.push(({ operation }) =>
    operation === 'GetExecutionHistory' && Date.now() < outageEnds ? errors(++failed) : undefined,
  );
  fake.append(arn, [...batchSettled(1), ...batchRestarted(2), ...batchSettled(2)]);

  // Act: 30 s in, the run finishes in AWS; a moment before the outage ends the command still
  // follows (it has not given up), and it prints the rest once AWS answers again.
  await jest.advanceTimersByTimeAsync(30_000);
  fake.append(arn, [...batchRestarted(3), ...batchSettled(3), ...finishing()]);
  await jest.advanceTimersByTimeAsync(OUTAGE_MS - 30_000 - 100);
  const justBeforeTheEnd = { ended, lines: emitted.length };
  await jest.advanceTimersByTimeAsync(20_000);
  return { fake, emitted, printed, linesBefore, justBeforeTheEnd, ended, failed, arn, outageEnds };
}

describe('following through an outage', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => {
    jest.useRealTimers();
    sfn.reset();
  });

  it('survives 60 s of throttled reads and resumes the lines where they stopped', async () => {
    // Act
    const run = await followThroughOutage(() => ({ name: 'ThrottlingException', message: 'Rate exceeded' }));

    // Assert
    expect(run.failed).toBeGreaterThan(5);
    expect(run.justBeforeTheEnd).toEqual({ ended: undefined, lines: run.linesBefore });
    expect(run.ended).toEqual({ exitCode: 0, status: 'SUCCEEDED', executionArns: [run.arn] });
    const types = run.emitted.map((e) => `${e.type}${'batchNumber' in e ? e.batchNumber : ''}`);
    expect(types).toEqual([
      'restart-started',
      'batch-started1',
      'allocation-restarting',
      'allocation-replaced',
      'allocation-status',
      'batch-started2',
      'allocation-restarting',
      'allocation-replaced',
      'allocation-status',
      'batch-started3',
      'allocation-restarting',
      'allocation-replaced',
      'allocation-status',
      'finished',
    ]);
    expect(run.linesBefore).toBe(3);
    expect(run.printed).toEqual([
      `AWS is throttling this command (ThrottlingException); retrying with backoff. The restart goes on in AWS: execution "${run.arn}" is followed again as soon as AWS answers`,
    ]);
  });

  it('survives 60 s of network errors (DNS, routes, resets, timeouts) the same way', async () => {
    // Arrange
    const codes = ['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNRESET', 'ETIMEDOUT'];

    // Act
    const run = await followThroughOutage((nth) => {
      const code = codes[(nth - 1) % codes.length] ?? 'ENOTFOUND';
      return { name: code, message: `getaddrinfo ${code} states.eu-west-1.amazonaws.com` };
    });

    // Assert
    expect(run.failed).toBeGreaterThan(codes.length);
    expect(run.justBeforeTheEnd).toEqual({ ended: undefined, lines: run.linesBefore });
    expect(run.ended?.exitCode).toBe(0);
    expect(run.emitted.map((e) => e.type).filter((t) => t === 'batch-started')).toHaveLength(3);
    expect(run.emitted.at(-1)?.type).toBe('finished');
    expect(run.printed).toHaveLength(1);
    expect(run.printed[0]).toMatch(
      /^AWS cannot be reached \(E[A-Z_]+\); retrying with backoff\. The restart goes on in AWS/,
    );
  });

  it('waits at most 10 s between two tries, so it follows again within 10 s of the outage’s end', async () => {
    // Act
    const run = await followThroughOutage(() => ({ name: 'ThrottlingException', message: 'Rate exceeded' }));

    // Assert
    const reads = run.fake.calls.filter((c) => c.operation === 'GetExecutionHistory');
    const gaps = reads.slice(1).map((read, i) => read.at - (reads[i]?.at ?? read.at));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
    const firstAnswered = reads.find((read) => read.at >= run.outageEnds);
    expect(firstAnswered?.failedWith).toBeUndefined();
    expect((firstAnswered?.at ?? Number.POSITIVE_INFINITY) - run.outageEnds).toBeLessThanOrEqual(10_000);
  });
});
