/**
 * The Nomad client configuration of an in-process run, handed to the handlers on the Lambda
 * context: the command resolves its flags and `NOMAD_*` variables once (`resolveNomadConfig`)
 * and the local engine attaches the result to each invocation, so the address, token and TLS
 * files reach the client without a trip through `process.env` or the execution input. On AWS
 * nothing is attached: the handler reads its environment and Secrets Manager instead.
 */
import type { Context } from 'aws-lambda';
import type { NomadClientConfig } from '../nomad/config';

const NOMAD_CONFIG = Symbol('nomad-restart.nomadConfig');
type WithNomadConfig = Context & { [NOMAD_CONFIG]?: NomadClientConfig };

/** The context, carrying `config` for the client of the steps run with it. */
export function withNomadConfig(context: Context, config: NomadClientConfig): Context {
  return Object.assign(context, { [NOMAD_CONFIG]: config });
}

/** The configuration attached to this invocation's context, if any. */
export function nomadConfigOf(context: Context): NomadClientConfig | undefined {
  return (context as WithNomadConfig)[NOMAD_CONFIG];
}
