/**
 * TLS settings as Go's HashiCorp clients load them (go-rootcerts for the CA, `tls.LoadX509KeyPair`
 * for the client certificate), turned into Node's TLS options and checked before any request.
 * Nomad's and Consul's clients share it; each names its own error class and wording.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
// `node:tls` is required only when TLS settings are checked: it loads `node:crypto`, about 15 ms
// of CPU on every start of a command that talks plain HTTP (see exchange.ts).
import type * as Tls from 'node:tls';
import { fileErrorText, messageOf } from './error-text';

/** TLS settings, as both HashiCorp CLIs take them. Every file setting is a path, read once when the client is created. */
export interface TlsFiles {
  /** PEM CA bundle that signs the server's certificate (`NOMAD_CACERT`, `CONSUL_CACERT`). @default - the system roots */
  caCert?: string;
  /** Directory of PEM CA files (`NOMAD_CAPATH`, `CONSUL_CAPATH`); all are trusted. @default - none */
  caPath?: string;
  /** PEM client certificate, for servers that require one (`NOMAD_CLIENT_CERT`, `CONSUL_CLIENT_CERT`). Needs `clientKey`. */
  clientCert?: string;
  /** PEM key of `clientCert` (`NOMAD_CLIENT_KEY`, `CONSUL_CLIENT_KEY`). */
  clientKey?: string;
  /** Name checked against the server certificate and sent as SNI (`NOMAD_TLS_SERVER_NAME`, `CONSUL_TLS_SERVER_NAME`). @default - the address's host */
  serverName?: string;
  /** Skip server certificate verification (`NOMAD_SKIP_VERIFY`, `CONSUL_HTTP_SSL_VERIFY=false`). Unsafe. @default false */
  insecure?: boolean;
}

/** How the calling client reports a bad setting. */
export interface TlsFailure {
  /** Builds the client's own configuration error from a reason (Go's wording). */
  readonly fail: (reason: string, cause?: unknown) => Error;
  /** The client's text for a certificate without its key or a key without its certificate. */
  readonly unpairedText: string;
}

/** A PEM file's text; `prefix` (`Error loading CA File: `, say) goes before Go's file error. */
function readPem(path: string, prefix: string, how: TlsFailure): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw how.fail(`${prefix}${fileErrorText(err, path)}`, err);
  }
}

const hasCertificate = (pem: string) => pem.includes('-----BEGIN CERTIFICATE-----');

/** go-rootcerts' `LoadCAFile`. */
function readCaFile(path: string, how: TlsFailure): string {
  const pem = readPem(path, 'Error loading CA File: ', how);
  if (!hasCertificate(pem)) throw how.fail(`Error loading CA File: Couldn't parse PEM in: ${path}`);
  return pem;
}

/**
 * go-rootcerts' `LoadCAPath`: `filepath.Walk` from `path` (a directory, walked in name order
 * and into subdirectories, or a single file), every file a PEM certificate, with its texts.
 */
function readCaPath(path: string, how: TlsFailure, found: string[] = []): string[] {
  let isDir: boolean;
  try {
    isDir = lstatSync(path).isDirectory();
  } catch (err) {
    throw how.fail(fileErrorText(err, path), err);
  }
  if (!isDir) {
    const pem = readPem(path, 'Error loading file from CAPath: ', how);
    if (!hasCertificate(pem)) throw how.fail(`Error loading CA Path: Couldn't parse PEM in: ${path}`);
    found.push(pem);
    return found;
  }
  let names: string[];
  try {
    names = readdirSync(path).sort();
  } catch (err) {
    throw how.fail(fileErrorText(err, path), err);
  }
  for (const name of names) readCaPath(join(path, name), how, found);
  return found;
}

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** Node's TLS options for `tls` (`ca`, `cert`, `key`, `servername`, `rejectUnauthorized`), files read now. */
export function nodeTlsOptions(tls: TlsFiles, how: TlsFailure): Record<string, unknown> {
  // As go-rootcerts: a CA file wins over a CA path, which is then not read at all.
  const ca = given(tls.caCert)
    ? [readCaFile(tls.caCert, how)]
    : given(tls.caPath)
      ? readCaPath(tls.caPath, how)
      : [];
  if (given(tls.clientCert) !== given(tls.clientKey)) throw how.fail(how.unpairedText);
  const options: Record<string, unknown> = { rejectUnauthorized: tls.insecure !== true };
  if (ca.length > 0) options['ca'] = ca;
  if (given(tls.clientCert) && given(tls.clientKey)) {
    // Go's tls.LoadX509KeyPair reports an unreadable file with its own error only.
    options['cert'] = readPem(tls.clientCert, '', how);
    options['key'] = readPem(tls.clientKey, '', how);
  }
  if (given(tls.serverName)) options['servername'] = tls.serverName;
  try {
    // Fails now, not at the first request, on a key that does not match its certificate or bad PEM.
    (createRequire(import.meta.url)('node:tls') as typeof Tls).createSecureContext(options);
  } catch (err) {
    throw how.fail(`invalid TLS configuration: ${messageOf(err)}`, err);
  }
  return options;
}
