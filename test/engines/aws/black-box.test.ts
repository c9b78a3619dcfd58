/**
 * Scenario: the real `nomad-restart` (the bin shim, as `npx` runs it) in a subprocess against
 * a Step Functions endpoint on 127.0.0.1 (`AWS_ENDPOINT_URL_SFN`, fake credentials), nothing
 * mocked inside the command: StartExecution carries a valid name; a run whose history reads are
 * throttled for 60 s (real seconds; the run goes on meanwhile) is still followed at 65 s and its
 * lines resume where they stopped; `attach <arn>` follows that execution without starting
 * anything; `-engine=aws -address ...` exits 1 naming `-address`, and no request reaches AWS.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXECUTION_NAME_RE } from '../../../lib/engines/aws';
import { type CliResult, normalise, runCli } from '../../e2e/helpers/run-cli';
import { collectText } from '../../fixtures/stream-text';
import {
  batchRestarted,
  batchSettled,
  execArn,
  finishing,
  lines,
  MACHINE,
  planned,
} from './helpers/fixtures';
import { localAwsEnv, sfnEndpointPerTest } from './helpers/sfn-endpoint';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'nomad-restart.js');
const THROTTLED_MS = 60_000;

const sfn = sfnEndpointPerTest();

/** The command's AWS environment: this endpoint, fake credentials, nothing from the machine's AWS config. */
const awsEnv = () => localAwsEnv({ AWS_ENDPOINT_URL_SFN: sfn.endpoint.url }, 'eu-west-1');

const START = ['-engine=aws', `-state-machine-arn=${MACHINE}`, '-no-color'];

/** Starts the command and lets the test look at it while it runs. */
function spawnCommand(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: 'UTC', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout = collectText(child.stdout);
  const stderr = collectText(child.stderr);
  let running = true;
  child.stdin.end();
  const exited = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      running = false;
      resolve({ code, stdout: normalise(stdout()), stderr: normalise(stderr()) });
    }),
  );
  return { exited, running: () => running, stdout: () => normalise(stdout()) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('nomad-restart against a Step Functions endpoint on 127.0.0.1', () => {
  it('starts the execution under a valid name and follows it to its end', async () => {
    // Arrange
    sfn.fake.onStart = (execution) =>
      sfn.fake.append(execution.arn, [...planned(), ...batchRestarted(1), ...finishing()]);

    // Act
    const result = await runCli([...START, '-yes', 'example'], awsEnv());

    // Assert
    const [started] = sfn.fake.received('StartExecution');
    expect(started?.['stateMachineArn']).toBe(MACHINE);
    expect(String(started?.['name'])).toMatch(EXECUTION_NAME_RE);
    expect(String(started?.['name'])).toMatch(/^example-\d{8}T\d{6}Z-[0-9a-f]{16}$/);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      lines.started,
      '==> <ts>: Restarting 1st batch of 1 allocations',
      lines.rescheduling(1),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('is still following at 65 s a run whose reads were throttled for 60 s, and resumes its lines', async () => {
    // Arrange: reads are throttled from the start for 60 s; meanwhile the run goes on in AWS.
    const throttledUntil = Date.now() + THROTTLED_MS;
    sfn.fake.faults.push(({ operation }) =>
      operation === 'GetExecutionHistory' && Date.now() < throttledUntil
        ? { name: 'ThrottlingException', message: 'Rate exceeded' }
        : undefined,
    );
    let arn = '';
    sfn.fake.onStart = (execution) => {
      arn = execution.arn;
      sfn.fake.append(arn, [...planned(), ...batchRestarted(1)]);
    };
    const run = spawnCommand([...START, '-yes', 'example'], awsEnv());
    await sleep(30_000);
    sfn.fake.append(arn, [...batchSettled(1), ...batchRestarted(2), ...batchSettled(2)]);

    // Act
    await sleep(THROTTLED_MS + 5_000 - 30_000);
    const at65s = { running: run.running(), stdout: run.stdout() };
    sfn.fake.append(arn, [...batchRestarted(3), ...batchSettled(3), ...finishing()]);
    const result = await run.exited;

    // Assert
    expect(at65s.running).toBe(true);
    const reads = sfn.fake.calls.filter((c) => c.operation === 'GetExecutionHistory');
    expect(reads.filter((c) => c.failedWith === 'ThrottlingException').length).toBeGreaterThan(5);
    expect(reads.some((c) => c.failedWith === undefined && c.at >= throttledUntil)).toBe(true);
    expect(result.code).toBe(0);
    const out = result.stdout.split('\n');
    for (const n of [1, 2, 3]) expect(out.filter((l) => l === lines.rescheduling(n))).toHaveLength(1);
    expect(out.indexOf(lines.rescheduling(2))).toBeGreaterThan(out.indexOf(lines.replaced(1)));
    expect(out.slice(-3)).toEqual(['', 'Job restarted successfully!', '']);
    expect(result.stderr).toBe(
      `AWS is throttling this command (ThrottlingException); retrying with backoff. The restart goes on in AWS: execution "${arn}" is followed again as soon as AWS answers\n`,
    );
  });

  it('attaches to an execution it did not start, and starts nothing', async () => {
    // Arrange
    const arn = execArn('from-the-console');
    sfn.fake.addExecution(arn, { job: 'example', batchSize: 1 }, [...planned(), ...batchRestarted(1)]);
    setTimeout(() => sfn.fake.append(arn, [...batchSettled(1), ...finishing()]), 1_500);

    // Act
    const result = await runCli(['attach', '-no-color', arn], awsEnv());

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toContain(lines.replaced(1));
    expect(result.stdout).toContain('Job restarted successfully!');
    expect(sfn.fake.received('StartExecution')).toEqual([]);
    expect(new Set(sfn.fake.received('GetExecutionHistory').map((i) => i['executionArn']))).toEqual(
      new Set([arn]),
    );
  });

  it('refuses -address with -engine=aws before any request reaches AWS', async () => {
    // Act
    const result = await runCli(
      [...START, '-address', 'https://nomad.internal:4646', '-yes', 'example'],
      awsEnv(),
    );

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toMatch(/^The -address option cannot be used with -engine=aws: /);
    expect(sfn.fake.calls).toEqual([]);
  });
});
