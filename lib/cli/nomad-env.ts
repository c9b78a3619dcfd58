/**
 * How the Nomad settings of the command line reach the engine: checked the way Nomad checks
 * them before its first request, then exported as the `NOMAD_*` variables the handlers read,
 * so the address and token never enter the execution input.
 */
import type { GeneralOptions } from './job-restart-command';

/**
 * Builds the client once (and closes it) so a bad address, CA file or key fails with
 * Nomad's `Error initializing client: ...` before anything else happens.
 * @throws the client's init error, whose message is the line to print
 */
export async function checkClientConfig(general: GeneralOptions): Promise<void> {
  const { NomadClient, resolveNomadConfig } = await import('../nomad/index');
  const flags = {
    address: general.address,
    ...(general.token === undefined ? {} : { token: general.token }),
    ...(general.tls.caCert === undefined ? {} : { caCert: general.tls.caCert }),
    ...(general.tls.caPath === undefined ? {} : { caPath: general.tls.caPath }),
    ...(general.tls.clientCert === undefined ? {} : { clientCert: general.tls.clientCert }),
    ...(general.tls.clientKey === undefined ? {} : { clientKey: general.tls.clientKey }),
    ...(general.tls.serverName === undefined ? {} : { tlsServerName: general.tls.serverName }),
    tlsSkipVerify: general.tls.skipVerify,
  };
  await NomadClient.create(resolveNomadConfig(flags)).close();
}

/** Writes the general options into `env` as the `NOMAD_*` variables the handlers read. */
export function exportNomadEnv(general: GeneralOptions, env: NodeJS.ProcessEnv = process.env): void {
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) env[name] = value;
  };
  set('NOMAD_ADDR', general.address);
  if (general.token === undefined) delete env['NOMAD_TOKEN'];
  set('NOMAD_TOKEN', general.token);
  set('NOMAD_HTTP_AUTH', general.httpAuth);
  set('NOMAD_CACERT', general.tls.caCert);
  set('NOMAD_CAPATH', general.tls.caPath);
  set('NOMAD_CLIENT_CERT', general.tls.clientCert);
  set('NOMAD_CLIENT_KEY', general.tls.clientKey);
  set('NOMAD_TLS_SERVER_NAME', general.tls.serverName);
  if (general.tls.skipVerify) env['NOMAD_SKIP_VERIFY'] = 'true';
}
