/**
 * The Nomad connection options with `-engine=aws`. The execution's Lambda functions reach Nomad
 * through the deployment's own connection (its `nomadAddress` context, token and TLS secrets),
 * so these flags would be silently ignored: they are refused instead, before anything starts.
 * A `-dry-run` plans from this machine, where they do apply, and says which Nomad it asked.
 */

import { goQuote } from '../../go/quote';
import type { NomadClientConfig } from '../../nomad/config';
import type { Formatter, OutputLine } from '../../restart/format';
import { CommandArgumentError } from './errors';

/** Flags that choose or authenticate the Nomad this machine talks to (`-insecure` is `-tls-skip-verify`). */
export const NOMAD_CONNECTION_FLAGS = [
  'address',
  'token',
  'ca-cert',
  'ca-path',
  'client-cert',
  'client-key',
  'tls-server-name',
  'tls-skip-verify',
  'insecure',
] as const;

/**
 * Refuses the first Nomad connection flag given with `-engine=aws` (not with `-dry-run`).
 * @param given whether the flag named (without dashes) was on the command line
 * @throws CommandArgumentError naming the flag and why
 */
export function refuseNomadConnectionFlags(given: (flag: string) => boolean): void {
  const flag = NOMAD_CONNECTION_FLAGS.find(given);
  if (flag === undefined) return;
  throw new CommandArgumentError(
    `The -${flag} option cannot be used with -engine=aws: the execution reaches Nomad through ` +
      "the deployment's own connection (its nomadAddress, token and TLS secrets), so it would be ignored; " +
      'only -dry-run, which plans from this machine, uses it',
  );
}

/** The dry run's first line with `-engine=aws`: the plan came from this machine's Nomad, not the deployment's. */
export function awsDryRunNomadLine(nomad: NomadClientConfig, formatter: Formatter, now: number): OutputLine {
  return formatter.renderHeader(
    `Dry run planned against the Nomad at ${goQuote(nomad.address)} ` +
      "from this machine, not through the deployment's own Nomad connection",
    now,
  );
}
