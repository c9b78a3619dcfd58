/**
 * The command line of `nomad-restart pause|resume|stop`, checked before anything is read: one
 * target, a job (reached through Nomad, with Nomad's general options) or an execution ARN
 * (reached through the stack's tables, where Nomad's options would be ignored, so refused).
 */
import { RemoteEngineError } from '../../engines/aws/errors';
import { parseExecutionArn } from '../../engines/aws/state-machine-arn';
import type { NomadClientConfig } from '../../nomad/config';
import type { LockKey } from '../../stores/job-lock';
import { NOMAD_CONNECTION_FLAGS } from './aws-engine-flags';
import { DISPLAY_FLAGS, parseCommandFlags } from './command-flags';
import { CommandArgumentError } from './errors';
import { NOMAD_GENERAL_FLAGS, nomadConfigOf } from './restart-flags';

/** The command line, checked. */
export type ControlLine =
  | { readonly form: 'job'; readonly key: LockKey; readonly nomad: NomadClientConfig }
  | { readonly form: 'execution'; readonly executionArn: string };

const ARN_PREFIX = 'arn:';

/**
 * Parses a control command's arguments.
 * @throws CliUsageError for `-help`, a flag Go refuses, or a bad target or option
 */
export function parseControlArgs(args: readonly string[], env: NodeJS.ProcessEnv): ControlLine {
  const flags = parseCommandFlags(args, { ...NOMAD_GENERAL_FLAGS, ...DISPLAY_FLAGS });
  const [target, ...extra] = flags.args;
  if (target === undefined || target === '' || extra.length > 0)
    throw new CommandArgumentError('This command takes one argument: <job | execution ARN>');
  if (!target.startsWith(ARN_PREFIX)) {
    const nomad = nomadConfigOf(flags, env);
    const namespace = nomad.namespace ?? 'default';
    if (namespace === '*')
      throw new CommandArgumentError(
        'Invalid -namespace value "*": a request is for one job, in one namespace',
      );
    return { form: 'job', key: { namespace, jobId: target }, nomad };
  }
  try {
    parseExecutionArn(target);
  } catch (error) {
    if (error instanceof RemoteEngineError) throw new CommandArgumentError(error.message);
    throw error;
  }
  // The execution names its job and its tables name the run: Nomad's options would be ignored.
  const ignored = [...NOMAD_CONNECTION_FLAGS, 'namespace', 'region'].find(
    (f) => flags.strings.has(f) || flags.bools.has(f),
  );
  if (ignored !== undefined)
    throw new CommandArgumentError(
      `The -${ignored} option cannot be used with an execution ARN: the request goes through the stack's tables, ` +
        'and the execution names its job',
    );
  return { form: 'execution', executionArn: target };
}
