/**
 * `-engine=aws -state-machine-arn=<arn>`: the same command line, run as an AWS execution by
 * `runRestartOnAws` from `lib/remote/`. That module is optional in this build: when it is not
 * there the command says so instead of pretending.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JobRestartCommandLine } from '../../cli/index';
import type { ProgressEvent } from '../../restart/events';
import type { Answer, Question } from '../../restart/questions';

/** The contract of `lib/remote/index.ts` that this command relies on. */
export type RunRestartOnAws = (request: {
  options: JobRestartCommandLine['options'];
  stateMachineArn: string;
  emit: (event: ProgressEvent) => void;
  ask: (question: Question) => Promise<Answer>;
  signal?: AbortSignal;
}) => Promise<{ exitCode: 0 | 1; status: string; executionArns: string[] }>;

/** What the command prints when the AWS engine is not part of this build. */
export const AWS_ENGINE_MISSING =
  'The AWS engine (-engine=aws) is not available in this build: lib/remote is missing; use -engine=local';

// Resolved from this source file's own location (kept when the command is bundled), so that
// the module is found once it exists without the bundle having to know about it.
const REMOTE_MODULE = new URL('../../remote/index.ts', import.meta.url);

/** `runRestartOnAws`, or undefined when `lib/remote` is not in this build. */
export async function loadAwsEngine(): Promise<RunRestartOnAws | undefined> {
  if (!existsSync(fileURLToPath(REMOTE_MODULE))) return undefined;
  // The module is TypeScript and outside the bundle: load it through tsx's loader.
  const { register } = await import('tsx/esm/api');
  register();
  const remote = (await import(REMOTE_MODULE.href)) as { runRestartOnAws?: unknown };
  return typeof remote.runRestartOnAws === 'function'
    ? (remote.runRestartOnAws as RunRestartOnAws)
    : undefined;
}
