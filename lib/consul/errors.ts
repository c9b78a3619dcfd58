/**
 * Errors of the Consul client. Each class has a stable `name`, its class name. None of them is a
 * health verdict: the health gate stops the run on any of them rather than count an allocation
 * unhealthy. No message ever holds the Consul token: they are built from the URL (which never
 * carries it) and Consul's answer.
 */
import { NamedError } from '../errors/named-error';

/**
 * Base class of every error the Consul client throws. When Consul answered with a status other
 * than 200, `statusCode` and `body` hold the answer and the message is Consul's API client's
 * (`api.StatusError`): `Unexpected response code: <code> (<body>)`, after the request it answered.
 */
export class ConsulError extends NamedError {
  /** HTTP status Consul answered with, when it answered. */
  public readonly statusCode: number | undefined;
  /** Consul's answer, trimmed, when it answered. */
  public readonly body: string | undefined;

  public constructor(message: string, answer?: { statusCode: number; body: string }, options?: ErrorOptions) {
    super(message, options);
    this.statusCode = answer?.statusCode;
    this.body = answer?.body;
  }
}

/**
 * The Consul settings are unusable (malformed `CONSUL_HTTP_ADDR`, unreadable token file, a
 * variable that is not a boolean, unreadable TLS files). Message: `Error connecting to Consul agent:
 * <reason>`, as Consul's CLI prints a client it cannot build.
 */
export class ConsulConfigError extends ConsulError {
  /** The reason alone, without the prefix. */
  public readonly reason: string;

  public constructor(reason: string, options?: ErrorOptions) {
    super(`Error connecting to Consul agent: ${reason}`, undefined, options);
    this.reason = reason;
  }
}

/** Consul could not be reached (connection refused or reset, name not resolved, no answer in time). */
export class ConsulUnreachableError extends ConsulError {
  /** The Consul address that could not be reached. */
  public readonly address: string;

  public constructor(address: string, detail: string, options?: ErrorOptions) {
    super(`Consul at ${address} is unreachable: ${detail}`, undefined, options);
    this.address = address;
  }
}

/** Consul answered 403 `ACL not found` or `Permission denied`: the Consul token was refused. */
export class ConsulTokenRefusedError extends ConsulError {
  public constructor(what: string, body: string, options?: ErrorOptions) {
    super(
      `Consul refused the Consul token (${what}: Unexpected response code: 403 (${body}))`,
      { statusCode: 403, body },
      options,
    );
  }
}

/** The caller's `AbortSignal` fired (a blocking query given up). Never retried. */
export class ConsulAbortedError extends ConsulError {
  public constructor(what: string, options?: ErrorOptions) {
    super(`${what}: request aborted`, undefined, options);
  }
}

/** Whether a read may succeed if sent again: Consul unreachable for now, or a 5xx (a leader election, a proxy). */
export function isTransientConsulError(err: unknown): boolean {
  if (err instanceof ConsulUnreachableError) return true;
  return err instanceof ConsulError && err.statusCode !== undefined && err.statusCode >= 500;
}
