/**
 * Runs the real command's front end (`runJobRestart`, what the bin shim calls) in this process,
 * with its own environment (never this process's) and no terminal: many runs in one test file
 * cost one module load and one synthesized definition instead of a subprocess each.
 */
import { PassThrough } from 'node:stream';
import { runJobRestart } from '../../../lib/cli/index';
import { collectText } from '../../fixtures/stream-text';
import { type CliResult, normalise } from './run-cli';

export async function runCommand(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  const out = collectText(stdout);
  const err = collectText(stderr);
  const code = await runJobRestart(args, {
    stdin,
    stdout,
    stderr,
    env: { TZ: 'UTC', ...env },
    onInterrupt: () => () => undefined,
  });
  return { code, stdout: normalise(out()), stderr: normalise(err()) };
}
