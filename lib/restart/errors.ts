/**
 * Errors of the restart domain that end or refuse a whole run (bad input, job lookup, an
 * active deployment). Each class has a stable `name`, its class name (Step Functions `Catch`
 * and `Retry` match on it), and a typed `kind`; callers branch on those, never on message text. Messages
 * are Nomad's, word for word, because they are printed as they are. Errors of one allocation
 * are in allocation-errors.ts.
 */
import { NamedError } from '../errors/named-error';
import { goQuote } from '../go/quote';
import { displayId, type IdDisplay } from './ids';

/** Base class of every restart-domain error. */
export class RestartError extends NamedError {
  /** A stable, machine-readable kind; subclasses narrow it. */
  readonly kind: string = 'restart';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Text of an error-like value, for `<err>` slots in messages. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * Invalid restart options. The message is exactly Nomad's (`command/job_restart.go`
 * `parseAndValidate`), without the additional-help line, e.g. `Invalid -batch-size value "0":
 * number value must be greater than zero`.
 */
export class RestartValidationError extends RestartError {
  override readonly kind = 'validation';
  /** The option or input field at fault (`batchSize`, `onError`...), when there is one. */
  readonly field: string | undefined;

  constructor(message: string, options?: { field?: string; cause?: unknown }) {
    super(message, options);
    this.field = options?.field;
  }
}

/** `No job(s) with prefix or ID "<arg>" found` */
export class JobNotFoundError extends RestartError {
  override readonly kind = 'job-not-found';
  readonly prefix: string;

  constructor(prefix: string) {
    super(`No job(s) with prefix or ID ${goQuote(prefix)} found`);
    this.prefix = prefix;
  }
}

/**
 * `Prefix "<arg>" matched multiple jobs`, a blank line, then the table built by
 * `formatPrefixMatches` (which also adds `(results may be truncated)`).
 */
export class MultipleJobsMatchedError extends RestartError {
  override readonly kind = 'multiple-jobs-matched';
  readonly prefix: string;
  /** Full IDs of the matched jobs, in list order. */
  readonly jobIds: readonly string[];

  constructor(props: { prefix: string; jobIds: readonly string[]; table: string }) {
    super(`Prefix ${goQuote(props.prefix)} matched multiple jobs\n\n${props.table}`);
    this.prefix = props.prefix;
    this.jobIds = props.jobIds;
  }
}

/**
 * What a Nomad query error message starts with, one per call of `command/job_restart.go` `Run` and
 * `command/meta.go` `Meta.JobByPrefix`.
 */
export type NomadQueryStep = 'job-prefix' | 'job' | 'versions' | 'allocations' | 'deployments';

const QUERY_PREFIX: Record<NomadQueryStep, (id: string) => string> = {
  'job-prefix': (id) => `Error querying job prefix ${goQuote(id)}`,
  job: (id) => `Error querying job ${goQuote(id)}`,
  versions: (id) => `Error retrieving versions of job ${goQuote(id)}`,
  allocations: (id) => `Error retrieving allocations for job ${goQuote(id)}`,
  deployments: (id) => `Error retrieving deployments for job ${goQuote(id)}`,
};

/** A Nomad read failed while planning or guarding, e.g. `Error querying job "x": <err>`. */
export class NomadQueryError extends RestartError {
  override readonly kind = 'nomad-query';
  readonly step: NomadQueryStep;

  constructor(step: NomadQueryStep, jobId: string, cause: unknown) {
    super(`${QUERY_PREFIX[step](jobId)}: ${errorText(cause)}`, { cause });
    this.step = step;
  }
}

/** `Jobs of type "<type>" are not allowed to be rescheduled.` (sysbatch and unknown types). */
export class RescheduleNotAllowedError extends RestartError {
  override readonly kind = 'reschedule-not-allowed';
  readonly jobType: string;

  constructor(jobType: string | undefined) {
    // A job without a Type is refused too, rather than crashing (seed fix).
    super(`Jobs of type ${goQuote(jobType ?? '')} are not allowed to be rescheduled.`);
    this.jobType = jobType ?? '';
  }
}

/** `Deployment "<id>" is "<status>"`: a non-terminal deployment stops the run. */
export class DeploymentActiveError extends RestartError {
  override readonly kind = 'deployment-active';
  readonly deploymentId: string;
  readonly status: string;

  constructor(props: { deploymentId: string; status: string } & IdDisplay) {
    super(`Deployment ${goQuote(displayId(props.deploymentId, props))} is ${goQuote(props.status)}`);
    this.deploymentId = props.deploymentId;
    this.status = props.status;
  }
}

/**
 * Beyond Nomad (`-wait-healthy`): Consul cannot be asked for the allocations' checks (unreachable,
 * the token refused, or the answer filtered by ACLs). Not a health verdict: it stops the run at
 * once, before the first batch when the plan's read meets it, before the next one otherwise.
 */
export class ConsulGateError extends RestartError {
  override readonly kind = 'consul-gate';

  /** `cause`'s own text (it names Consul's address, or what the token lacks). */
  constructor(cause: unknown) {
    super(`Error reading Consul's checks for -wait-healthy: ${errorText(cause)}`, { cause });
  }

  /**
   * Consul answered `X-Consul-Results-Filtered-By-ACLs: true` without the checks of `service`:
   * the Consul token cannot read it.
   */
  static filtered(service: string): ConsulGateError {
    return new ConsulGateError(
      `Consul hid the checks of service ${goQuote(service)} from the Consul token (X-Consul-Results-Filtered-By-ACLs): the token needs "service:read" on ${goQuote(service)} and "node:read" on its nodes`,
    );
  }
}
