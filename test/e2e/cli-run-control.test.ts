/**
 * Scenario: a terminal run of `web` (3 allocations, one per batch, `-batch-wait 5s`, `-yes`) and
 * a second `nomad-restart` process steering it, as an operator on another machine would: both
 * real commands in subprocesses, against the simulator with ACLs on, each holding exactly the
 * README's policy. `pause web` after the first batch: the run prints the paused line and its
 * question, and the request log shows no restart until `resume web`; then it restarts the rest
 * and finishes; a second `pause web` while it is paused, and a `resume web` while it is not, are
 * refused (exit 1, nothing written). `stop web` ends it canceled before its next batch, its lock
 * in Nomad released and its request gone. The simulator runs in real time: the run polls the request every 2 s.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operatorName } from '../../lib/cli/terminal/operator';
import { controlRequestPath, sharedLockPath } from '../../lib/stores';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { collectText } from '../fixtures/stream-text';
import { eventually } from '../sim/helpers/http';
import { simpleJob } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'nomad-restart.js');
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;
/** 5 s between batches: room for the second process to start and write, on a loaded machine. */
const RESTART_ARGS = ['-batch-size', '1', '-batch-wait', '5s', '-yes', 'web'];
const WAITING = 'Waiting 5s before restarting the next batch';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function cluster(): Promise<RunningSimulator> {
  sim = await startSimulator({
    scenario: { nodes: [{ name: 'n1' }], jobs: [simpleJob('web', 'service', 3)], acl: readmePolicyAcl() },
  });
  const s = sim;
  await s.control.waitFor(
    (state) => state.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 3,
    10_000,
  );
  return s;
}

/** The restart, in a subprocess whose stdout is read as it comes (stdin a pipe: no terminal). */
function startRestart(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...RESTART_ARGS], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: 'UTC', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout = collectText(child.stdout);
  const stderr = collectText(child.stderr);
  const code = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { stdout, stderr, code };
}

const restarts = (s: RunningSimulator) =>
  s.control.requestLog().filter((r) => r.method === 'PUT' && RESTART.test(r.path)).length;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a terminal run steered from another nomad-restart process', () => {
  it('pauses before its next batch, restarts nothing until resumed, then finishes', async () => {
    // Arrange: the run has restarted its first allocation and waits before the next batch.
    const s = await cluster();
    const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const run = startRestart(env);
    await eventually(async () => (run.stdout().includes(WAITING) ? true : undefined), 30_000);

    // Act: pause; wait for the run to say so, then 3 s more (more than its 2 s poll); resume.
    const paused = await runCli(['pause', 'web'], env);
    await eventually(async () => (run.stdout().includes('Resume the restart?') ? true : undefined), 30_000);
    const atPause = restarts(s);
    const pausedAgain = await runCli(['pause', 'web'], env);
    await sleep(3_000);
    const afterWaiting = restarts(s);
    const resumed = await runCli(['resume', 'web'], env);
    const code = await run.code;

    // Assert
    expect(paused).toMatchObject({ code: 0, stderr: '' });
    expect(resumed).toMatchObject({ code: 0, stderr: '' });
    expect(pausedAgain).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'The restart of job "web" in namespace "default" is already paused: its pause question waits for an answer (resume or stop it)\n',
    });
    expect(atPause).toBe(1);
    expect(afterWaiting).toBe(1);
    expect(run.stdout()).toContain(`Restart paused by ${operatorName()} (terminal)`);
    expect(run.stdout()).toContain(`Restart resumed by ${operatorName()}`);
    expect(run.stdout()).toContain('Job restart finished');
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    expect(restarts(s)).toBe(3);
    expect(s.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
  }, 90_000);

  it('refuses a resume with nothing paused, writing nothing, and the run goes on', async () => {
    // Arrange: the run has restarted its first allocation and waits before the next batch.
    const s = await cluster();
    const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const run = startRestart(env);
    await eventually(async () => (run.stdout().includes(WAITING) ? true : undefined), 30_000);
    const logged = s.control.requestLog().length;

    // Act
    const resumed = await runCli(['resume', 'web'], env);
    const requestWrites = s.control
      .requestLog()
      .slice(logged)
      .filter((r) => r.method !== 'GET' && r.path === `/v1/var/${controlRequestPath('web')}`);
    const code = await run.code;

    // Assert
    expect(resumed).toEqual({
      code: 1,
      stdout: '',
      stderr: 'The restart of job "web" in namespace "default" is not paused: there is nothing to resume\n',
    });
    expect(requestWrites).toEqual([]);
    expect(code).toBe(0);
    expect(restarts(s)).toBe(3);
    expect(run.stdout()).not.toContain('resumed');
  }, 90_000);

  it('stops before its next batch, canceled, its lock released', async () => {
    // Arrange: the run has restarted its first allocation and waits before the next batch.
    const s = await cluster();
    const env = { NOMAD_ADDR: s.address, NOMAD_TOKEN: OPERATOR_TOKEN };
    const run = startRestart(env);
    await eventually(async () => (run.stdout().includes(WAITING) ? true : undefined), 30_000);

    // Act
    const stopped = await runCli(['stop', 'web'], env);
    const code = await run.code;
    const again = await runCli(['stop', 'web'], env);

    // Assert
    expect(stopped).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout()).toContain(`Restart stopped by ${operatorName()} (terminal)`);
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
    expect(restarts(s)).toBe(1);
    expect(s.control.state().variable('default', sharedLockPath('web'))?.lock).toBeUndefined();
    expect(s.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No restart of job "web" in namespace "default" is running: no run holds its lock\n',
    });
  }, 90_000);
});
