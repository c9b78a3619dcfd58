/**
 * The flags every restarting command shares (`nomad-restart [options] <job>` and `nomad-restart
 * fleet`): Nomad's general options, the options of `nomad job restart` and ours beyond it, read
 * one way so both commands accept, refuse and default them alike.
 */

import { type ConsulClientConfig, consulConfigFromEnv } from '../../consul/config';
import type { GoFlagResult, GoFlagSpecs } from '../../go/flag';
import { goQuote } from '../../go/quote';
import { type NomadClientConfig, type NomadConfigFlags, resolveNomadConfig } from '../../nomad/config';
import { DEFAULT_BATCH_SIZE, DEFAULT_BATCH_WAIT, DEFAULT_ON_ERROR } from '../../restart/options';
import type { RawRestartFields } from '../../restart/validate';
import { refuseNomadConnectionFlags } from './aws-engine-flags';
import { DISPLAY_FLAGS, displayOptionsOf, type OutputMode } from './command-flags';
import { CommandArgumentError } from './errors';

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

/** Environment variables, e.g. `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Nomad's general options as its `Meta.FlagSet` (command/meta.go) defines them, without the
 * display flags: the ones {@link nomadConfigOf} reads, for every command that talks to Nomad.
 */
export const NOMAD_GENERAL_FLAGS: GoFlagSpecs = {
  address: 'string',
  region: 'string',
  namespace: 'string',
  'ca-cert': 'string',
  'ca-path': 'string',
  'client-cert': 'string',
  'client-key': 'string',
  insecure: 'bool',
  'tls-server-name': 'string',
  'tls-skip-verify': 'bool',
  token: 'string',
};

/** The flags of `nomad job restart` and Nomad's general options, plus ours. */
export const RESTART_COMMAND_FLAGS: GoFlagSpecs = {
  ...NOMAD_GENERAL_FLAGS,
  ...DISPLAY_FLAGS,
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
  'started-before': 'string',
  'consul-address': 'string',
  'consul-token': 'string',
  'stop-on-alarm': 'list',
  'bake-time': 'string',
  reason: 'string',
};

/** Like hashicorp/cli: a help flag anywhere before `--` shows the help, even after the arguments. */
export function wantsHelp(args: readonly string[]): boolean {
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

/** The Nomad client's configuration: the general options' flags over the `NOMAD_*` variables. */
export function nomadConfigOf(flags: GoFlagResult, env: Env): NomadClientConfig {
  const str = (name: string) => flags.strings.get(name);
  const bool = (name: string) => flags.bools.get(name) ?? false;
  return resolveNomadConfig(
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
    env,
  );
}

/**
 * The restart options as typed, for `validateRestartFields`; the namespace and region are the
 * client's (the flags over `NOMAD_NAMESPACE` and `NOMAD_REGION`).
 */
export function rawRestartFieldsOf(
  flags: GoFlagResult,
  job: string,
  nomad: NomadClientConfig,
): RawRestartFields {
  const str = (name: string) => flags.strings.get(name);
  const bool = (name: string) => flags.bools.get(name) ?? false;
  return {
    job,
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
    startedBefore: str('started-before'),
    stopOnAlarms: flags.lists.get('stop-on-alarm'),
    bakeTime: str('bake-time'),
    reason: str('reason'),
  };
}

/**
 * `-engine` and `-state-machine-arn`.
 * @param dryRun a dry run plans from this machine, so the Nomad connection flags apply with `aws`
 * @throws CommandArgumentError for an unknown engine, a missing or stray ARN, or a Nomad
 *   connection flag with `-engine=aws`
 */
export function engineOf(flags: GoFlagResult, dryRun: boolean): EngineChoice {
  const engineName = flags.strings.get('engine') ?? 'local';
  const arn = flags.strings.get('state-machine-arn');
  if (engineName === 'aws') {
    if (arn === undefined || arn === '')
      throw new CommandArgumentError('The -engine=aws option requires -state-machine-arn');
    if (!dryRun) refuseNomadConnectionFlags((flag) => flags.strings.has(flag) || flags.bools.has(flag));
    return { kind: 'aws', stateMachineArn: arn };
  }
  if (engineName === 'local') {
    if (arn !== undefined) {
      throw new CommandArgumentError('The -state-machine-arn option can only be used with -engine=aws');
    }
    return { kind: 'local' };
  }
  throw new CommandArgumentError(
    `Invalid -engine value ${goQuote(engineName)}: valid options are "local" and "aws"`,
  );
}

/**
 * The display options and the general options.
 * @param waitHealthy Consul's settings are read only for the gate: a run that never asks Consul
 *   is not stopped by them
 * @throws CommandArgumentError for a bad `-output`; ConsulConfigError for bad Consul settings
 */
export function generalOptionsOf(
  flags: GoFlagResult,
  env: Env,
  nomad: NomadClientConfig,
  waitHealthy: boolean,
): { general: GeneralOptions; output: OutputMode } {
  const { output, noColor, forceColor } = displayOptionsOf(flags, env);
  const general: GeneralOptions = {
    nomad,
    noColor,
    forceColor,
    ...(waitHealthy
      ? {
          consul: consulConfigFromEnv(env, {
            address: flags.strings.get('consul-address'),
            token: flags.strings.get('consul-token'),
          }),
        }
      : {}),
  };
  return { general, output };
}
