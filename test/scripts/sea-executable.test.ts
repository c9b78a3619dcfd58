/**
 * The single executable as an operator runs it: built for this machine's architecture (as
 * `npm run build:sea` builds it, with the code of a first run), then run with a PATH that holds no `node`:
 * `-help`, a restart against its own `sim`, and `demo`, each compared with the checkout's command.
 * And one executable whose recorded target is the other architecture, in this machine's Node: it
 * refuses with one line. CI runs this file with the suite (.ci/run); it builds in about a minute.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { machine, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEA_ARCHES, seaFileName, wrongArchitectureMessage } from '../../lib/sea/architecture';
import { registryNode } from '../../scripts/registry-node';
import { makeExecutable, prepareSeaInputs, warmCodeCache } from '../../scripts/sea-executable';
import { type CliResult, normalise, runCli } from '../e2e/helpers/run-cli';
import { collectText } from '../fixtures/stream-text';

const dir = mkdtempSync(join(tmpdir(), 'sea-executable-'));
/** A PATH with one empty folder on it: no `node` to fall back on. */
const noNodePath = join(dir, 'empty-path');
const executable = join(dir, seaFileName(process.arch));
const otherArch = SEA_ARCHES.find((arch) => arch !== process.arch) ?? 'arm64';
const mismatched = join(dir, 'mismatched', seaFileName(otherArch));
const children: ChildProcess[] = [];

/**
 * A simulator's allocation IDs and ports are random, so the order of allocations in a batch and
 * the number of status polls vary from run to run: the lines compare without them, sorted.
 */
const shape = (text: string) =>
  normalise(text)
    .replace(/\b[0-9a-f]{8}\b/g, '<id>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/Nomad requests +\d+/, 'Nomad requests <n>')
    .split('\n')
    .sort();

function runExecutable(
  path: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, {
      env: { PATH: noNodePath, HOME: dir, TZ: 'UTC', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = collectText(child.stdout);
    const stderr = collectText(child.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: normalise(stdout()), stderr: normalise(stderr()) }));
  });
}

/** Starts `<executable> sim` on free ports and resolves with its Nomad address. */
function startSim(): Promise<string> {
  const child = spawn(executable, ['sim', '-port', '0', '-consul-port', '0'], {
    env: { PATH: noNodePath, HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const stderr = collectText(child.stderr);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const address = /Nomad simulator listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (address !== undefined) resolve(address);
    });
    child.on('close', (code) => reject(new Error(`sim exited with ${code}: ${out}${stderr()}`)));
  });
}

beforeAll(async () => {
  mkdirSync(noNodePath);
  const inputs = await prepareSeaInputs(join(dir, 'work'));
  const node = registryNode(process.arch);
  makeExecutable({ ...inputs, node, arch: process.arch, out: executable });
  const codeCache = join(dir, 'code-cache');
  await warmCodeCache(executable, codeCache);
  makeExecutable({ ...inputs, node, arch: process.arch, codeCache, out: executable });
  makeExecutable({ ...inputs, node, arch: otherArch, out: mismatched });
}, 600_000);

afterAll(async () => {
  await Promise.all(
    children.map((child) => {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill();
      return child.exitCode === null ? closed : undefined;
    }),
  );
  rmSync(dir, { recursive: true, force: true });
});

describe('the single executable', () => {
  it('runs with no node on PATH', () => {
    // Assert
    expect(existsSync(join(noNodePath, 'node'))).toBe(false);
    expect(existsSync(executable)).toBe(true);
  });

  it('prints the help the command prints', async () => {
    // Act
    const [sea, command] = await Promise.all([runExecutable(executable, ['-help']), runCli(['-help'])]);

    // Assert
    expect(sea.code).toBe(0);
    expect(sea).toEqual(command);
  });

  it('restarts a job on its own sim', async () => {
    // Arrange
    const address = await startSim();

    // Act
    const result = await runExecutable(executable, ['-yes', 'example'], { NOMAD_ADDR: address });

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(shape(result.stdout)).toEqual(
      [
        '==> <ts>: Restarting 5 allocations',
        ...['proxy', 'proxy', 'proxy', 'web', 'web'].map(
          (group) => `    <ts>: Restarting running tasks in allocation "<id>" for group "${group}"`,
        ),
        '==> <ts>: Job restart finished',
        '',
        'Job restarted successfully!',
        '',
      ].sort(),
    );
  });

  it('runs the demo as the command does', async () => {
    // Act
    const [sea, command] = await Promise.all([runExecutable(executable, ['demo']), runCli(['demo'])]);

    // Assert
    expect(sea.code).toBe(0);
    expect(shape(sea.stdout)).toEqual(shape(command.stdout));
    expect(sea.stderr).toBe(command.stderr);
    expect(sea.stdout).toContain('Job restarted successfully!');
  });

  it('refuses a Node of another architecture than its recorded target with one line', async () => {
    // Act
    const result = await runExecutable(mismatched, ['-help']);

    // Assert
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `${wrongArchitectureMessage(otherArch, process.arch, machine(), process.platform)}\n`,
    });
  });
});
