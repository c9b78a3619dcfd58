/**
 * Errors raised by the Nomad API simulator. Everything the simulator refuses over HTTP is a
 * {@link SimHttpError} carrying Nomad's status code and exact text/plain body
 * (`command/agent/http.go` `HTTPServer.wrap`).
 */
import { NamedError } from '../lib/errors/named-error';

/** Base class of every simulator error. */
export class SimError extends NamedError {}

/** An answer Nomad would give as a non-200 status with a plain-text body. */
export class SimHttpError extends SimError {
  readonly status: number;
  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

/** A scenario (file or object) that cannot be loaded; the message names the field and the value. */
export class SimScenarioError extends SimError {}

/** A control-API call that names something the simulator does not have. */
export class SimControlError extends SimError {}

/** `waitFor` gave up before its predicate held. */
export class SimWaitTimeoutError extends SimError {}

/**
 * One of the simulator's servers could not listen (its port is taken, say). Names which server
 * and port, so a command can point at the flag that chose it; the system error is the cause.
 */
export class SimListenError extends SimError {
  readonly server: 'nomad' | 'consul';
  readonly port: number;
  /** The system error's code (`EADDRINUSE`, `EACCES`...), when it has one. */
  readonly code: string | undefined;
  constructor(server: 'nomad' | 'consul', port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const what = server === 'nomad' ? 'Nomad simulator' : 'Consul simulator';
    const why =
      code === 'EADDRINUSE' ? 'the port is already in use' : String((cause as Error)?.message ?? cause);
    super(`${what} cannot listen on 127.0.0.1:${port}: ${why}`, { cause });
    this.server = server;
    this.port = port;
    this.code = code;
  }
}
