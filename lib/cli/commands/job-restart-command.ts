/**
 * The command line of `nomad-restart [options] <job>`: exactly the flags of `nomad job
 * restart` (Nomad's `command/job_restart.go` `Help`, `parseAndValidate`) and Nomad's general
 * options, parsed with Go's `flag` rules and validated in Nomad's order with Nomad's messages, plus
 * our own options.
 */

import { type ConsulClientConfig, consulConfigFromEnv } from '../../consul/config';
import type { GoFlagSpecs } from '../../go/flag';
import { goQuote } from '../../go/quote';
import { type NomadClientConfig, type NomadConfigFlags, resolveNomadConfig } from '../../nomad/config';
import { RestartValidationError } from '../../restart/errors';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_BATCH_WAIT,
  DEFAULT_ON_ERROR,
  type RestartOptions,
} from '../../restart/options';
import { validateRestartFields } from '../../restart/validate';
import { refuseNomadConnectionFlags } from './aws-engine-flags';
import { DISPLAY_FLAGS, displayOptionsOf, type OutputMode, parseFlags } from './command-flags';
import { CommandArgumentError, HelpRequestedError } from './errors';

/** Nomad's default agent address. */

/** Nomad's general options (`command/meta.go` `Meta.FlagSet`). */
export interface GeneralOptions {
  /**
   * The Nomad client's configuration: the flags over the `NOMAD_*` variables, resolved once here
   * (`resolveNomadConfig`) and handed as is to every step. Holds the token: never print it.
   */
  nomad: NomadClientConfig;
  /** `-no-color`, `NOMAD_CLI_NO_COLOR` or `NO_COLOR`. */
  noColor: boolean;
  /** `-force-color` or `NOMAD_CLI_FORCE_COLOR` (loses to `noColor`). */
  forceColor: boolean;
  /**
   * With `-wait-healthy`: Consul's client configuration (`-consul-address`, `-consul-token` over
   * the `CONSUL_*` variables), for the gate's reads of Consul checks. Holds the Consul token.
   */
  consul?: ConsulClientConfig;
}

/** Where the restart runs. */
export type EngineChoice = { kind: 'local' } | { kind: 'aws'; stateMachineArn: string };

/** A parsed and validated command line. */
export interface JobRestartCommandLine {
  options: RestartOptions;
  general: GeneralOptions;
  engine: EngineChoice;
  output: OutputMode;
}

/** Environment variables, e.g. `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

const FLAGS: GoFlagSpecs = {
  // General options, as Nomad's Meta.FlagSet defines them.
  address: 'string',
  region: 'string',
  namespace: 'string',
  ...DISPLAY_FLAGS,
  'ca-cert': 'string',
  'ca-path': 'string',
  'client-cert': 'string',
  'client-key': 'string',
  insecure: 'bool',
  'tls-server-name': 'string',
  'tls-skip-verify': 'bool',
  token: 'string',
  // nomad job restart.
  'all-tasks': 'bool',
  yes: 'bool',
  'batch-size': 'string',
  'batch-wait': 'string',
  'on-error': 'string',
  'no-shutdown-delay': 'bool',
  reschedule: 'bool',
  verbose: 'bool',
  group: 'list',
  task: 'list',
  // Beyond Nomad.
  engine: 'string',
  'state-machine-arn': 'string',
  'max-errors': 'string',
  'replacement-timeout': 'string',
  'dry-run': 'bool',
  'wait-healthy': 'bool',
  'min-healthy-time': 'string',
  'healthy-deadline': 'string',
  'consul-address': 'string',
  'consul-token': 'string',
};

/** Like hashicorp/cli: a help flag anywhere before `--` shows the help, even after the job. */
function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '-h' || arg === '-help' || arg === '--help') return true;
  }
  return false;
}

/** Copies the defined entries only (the types use `exactOptionalPropertyTypes`). */
function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Parses and validates `nomad-restart [options] <job>` arguments (without the program name).
 *
 * @param ctx.interactive stdin and stdout are both terminals (`ask` needs it, or `-yes`).
 * @param ctx.env the environment, for `NOMAD_*` defaults.
 * @throws HelpRequestedError for `-h`/`-help`; GoFlagError for flag syntax; CommandArgumentError
 *   for a wrong argument count or a bad value (message exactly Nomad's).
 */
export function parseJobRestartArgs(
  args: readonly string[],
  ctx: { interactive: boolean; env: Env },
): JobRestartCommandLine {
  if (wantsHelp(args)) throw new HelpRequestedError();
  const flags = parseFlags(args, FLAGS);
  const str = (name: string) => flags.strings.get(name);
  const bool = (name: string) => flags.bools.get(name) ?? false;

  if (flags.args.length !== 1) throw new CommandArgumentError('This command takes one argument: <job>');

  // The options' namespace and region are the client's: the flags over NOMAD_NAMESPACE and NOMAD_REGION.
  const nomad = resolveNomadConfig(
    defined<NomadConfigFlags>({
      address: str('address'),
      token: str('token'),
      namespace: str('namespace'),
      region: str('region'),
      caCert: str('ca-cert'),
      caPath: str('ca-path'),
      clientCert: str('client-cert'),
      clientKey: str('client-key'),
      tlsServerName: str('tls-server-name'),
      tlsSkipVerify: bool('insecure') || bool('tls-skip-verify'),
    }),
    ctx.env,
  );
  let options: RestartOptions;
  try {
    options = validateRestartFields(
      {
        job: flags.args[0] ?? '',
        namespace: nomad.namespace,
        region: nomad.region,
        batchSize: str('batch-size') ?? DEFAULT_BATCH_SIZE,
        batchWait: str('batch-wait') ?? DEFAULT_BATCH_WAIT,
        onError: str('on-error') ?? DEFAULT_ON_ERROR,
        yes: bool('yes'),
        groups: flags.lists.get('group') ?? [],
        tasks: flags.lists.get('task') ?? [],
        allTasks: bool('all-tasks'),
        reschedule: bool('reschedule'),
        noShutdownDelay: bool('no-shutdown-delay'),
        verbose: bool('verbose'),
        replacementTimeout: str('replacement-timeout'),
        maxErrors: str('max-errors'),
        dryRun: bool('dry-run'),
        waitHealthy: bool('wait-healthy'),
        minHealthyTime: str('min-healthy-time'),
        healthyDeadline: str('healthy-deadline'),
      },
      { interactive: ctx.interactive },
    );
  } catch (err) {
    if (err instanceof RestartValidationError) throw new CommandArgumentError(err.message, { cause: err });
    throw err;
  }

  const engineName = str('engine') ?? 'local';
  const arn = str('state-machine-arn');
  let engine: EngineChoice;
  if (engineName === 'aws') {
    if (arn === undefined || arn === '')
      throw new CommandArgumentError('The -engine=aws option requires -state-machine-arn');
    engine = { kind: 'aws', stateMachineArn: arn };
    if (!options.dryRun)
      refuseNomadConnectionFlags((flag) => flags.strings.has(flag) || flags.bools.has(flag));
  } else if (engineName === 'local') {
    if (arn !== undefined) {
      throw new CommandArgumentError('The -state-machine-arn option can only be used with -engine=aws');
    }
    engine = { kind: 'local' };
  } else {
    throw new CommandArgumentError(
      `Invalid -engine value ${goQuote(engineName)}: valid options are "local" and "aws"`,
    );
  }

  const { output, noColor, forceColor } = displayOptionsOf(flags, ctx.env);

  const general: GeneralOptions = {
    nomad,
    noColor,
    forceColor,
    // Read only for the gate: a run that never asks Consul is not stopped by its settings.
    ...(options.waitHealthy === undefined
      ? {}
      : {
          consul: consulConfigFromEnv(ctx.env, {
            address: str('consul-address'),
            token: str('consul-token'),
          }),
        }),
  };
  return { options, general, engine, output };
}
export { jobRestartHelp } from './job-restart-help';
