/**
 * The Nomad client configuration of the command line, checked the way Nomad checks it before
 * its first request. The engine gets the configuration itself (the local engine hands it to the
 * handlers on their context), so nothing is written to `process.env` and the address and token
 * never enter the execution input.
 */
import type { NomadClientConfig } from '../nomad/config';

/**
 * Builds the client once (and closes it) so a bad address, CA file or key fails with
 * Nomad's `Error initializing client: ...` before anything else happens.
 * @throws the client's init error, whose message is the line to print
 */
export async function checkClientConfig(config: NomadClientConfig): Promise<void> {
  const { NomadClient } = await import('../nomad/client');
  await NomadClient.create(config).close();
}
