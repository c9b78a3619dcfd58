/**
 * Runs the real `nomad-restart` command as a subprocess (the bin shim, as `npx` would), with
 * no terminal: stdin is a pipe, so `ask` needs `-yes` exactly as in Nomad's own tests.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectText } from '../../fixtures/stream-text';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'nomad-restart.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Timestamps (`2026-11-22T23:38:39Z`, `...-05:00`) become `<ts>` so lines compare exactly. */
export function normalise(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})/g, '<ts>');
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, input = ''): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TZ: 'UTC', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout = collectText(child.stdout);
    const stderr = collectText(child.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: normalise(stdout()), stderr: normalise(stderr()) }));
    child.stdin.end(input);
  });
}

/**
 * Runs every command line with at most `limit` subprocesses at a time (CI has 2 cores), and
 * returns the results in the order given.
 */
export async function runCliPool(
  runs: readonly { args: readonly string[]; env: NodeJS.ProcessEnv }[],
  limit = 2,
): Promise<CliResult[]> {
  const results: CliResult[] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < runs.length; i = next++) {
      const run = runs[i];
      if (run !== undefined) results[i] = await runCli(run.args, run.env);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, runs.length) }, worker));
  return results;
}

/**
 * The stdout lines of a successful `-wait-healthy -batch-size 1` restart of the allocations whose
 * short IDs are given, in order, all in group "web": each batch waits for its allocation to be
 * healthy again before the next one starts.
 */
export function healthGatedRestartLines(shortIds: readonly (string | undefined)[]): string[] {
  return [
    `==> <ts>: Restarting ${shortIds.length} allocations`,
    ...shortIds.flatMap((id) => [
      `    <ts>: Restarting running tasks in allocation "${id}" for group "web"`,
      '==> <ts>: Waiting for 1 allocation to become healthy',
      `    <ts>: Allocation "${id}" is healthy`,
    ]),
    '==> <ts>: Job restart finished',
    '',
    'Job restarted successfully!',
    '',
  ];
}

/**
 * The stdout lines of a `-wait-healthy -batch-size 1 -max-errors 0` restart of `total`
 * allocations whose first batch (the allocation `firstShortId`, group "web") never became healthy.
 */
export function healthGateStoppedLines(total: number, firstShortId: string): string[] {
  return [
    `==> <ts>: Restarting ${total} allocations`,
    `    <ts>: Restarting running tasks in allocation "${firstShortId}" for group "web"`,
    '==> <ts>: Waiting for 1 allocation to become healthy',
    '==> <ts>: Stopping job restart: 1 allocation failed, more than -max-errors=0',
    '==> <ts>: Job restart finished with errors',
    '',
  ];
}

/** The stderr lines of a `-reschedule` run whose one error is Nomad's 403 on evaluating the job. */
export function evaluateDeniedErrorLines(shortId: string): string[] {
  return [
    '',
    '1 error occurred while restarting job:',
    `* Error restarting allocation "${shortId}": Failed evaluate job: Unexpected response code: 403 (Permission denied)`,
    '',
  ];
}
