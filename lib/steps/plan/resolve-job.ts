/**
 * Finds the job a restart is about from an ID or prefix, as Nomad's command does (exact messages).
 */
import type { NomadClient } from '../../nomad/client';
import { isPermissionDenied } from '../../nomad/errors';
import type { Job, JobListStub } from '../../nomad/types';
import { JobNotFoundError, MultipleJobsMatchedError, NomadQueryError } from '../../restart/errors';
import { formatPrefixMatches, PREFIX_PAGE_SIZE } from '../../restart/prefix-matches';

/** The job a restart is about, with the namespace every later request must use. */
export interface ResolvedJob {
  /** The full job ID. */
  readonly id: string;
  /**
   * The namespace for every later request: the job's own (from the job info), else the one
   * the prefix list reported, else the configured one. `undefined` leaves it to the client.
   */
  readonly namespace: string | undefined;
  /** The job definition from `GET /v1/job/:id`. */
  readonly job: Job;
}

/** Options of {@link resolveJob}. */
export interface ResolveJobOptions {
  /** The configured namespace (`-namespace`/`NOMAD_NAMESPACE`); may be `*`. @default - the client's */
  readonly namespace?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

const byId = (a: JobListStub, b: JobListStub): number => (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0);

/**
 * Resolves a job argument (exact ID or prefix) the way Nomad's `Meta.JobByPrefix` does
 * (`command/meta.go`), then reads the job.
 *
 * Without `list-jobs` the prefix list is refused with `Permission denied`; the argument is
 * then taken as the exact ID. Unlike Nomad, the configured namespace is kept in that
 * fallback (README, "Differences from nomad job restart"), so a restart in `prod` does not silently move
 * to `default`.
 *
 * @throws NomadQueryError (`job-prefix`, `job`), JobNotFoundError, MultipleJobsMatchedError
 */
export async function resolveJob(
  client: NomadClient,
  jobArg: string,
  options: ResolveJobOptions = {},
): Promise<ResolvedJob> {
  const { namespace, signal } = options;
  let stubs: JobListStub[] | undefined;
  try {
    const result = await client.jobs().list(
      { prefix: jobArg, perPage: PREFIX_PAGE_SIZE },
      {
        ...(namespace === undefined ? {} : { namespace }),
        ...(signal === undefined ? {} : { signal }),
      },
    );
    stubs = [...result.value].sort(byId);
  } catch (err) {
    if (!isPermissionDenied(err)) {
      throw new NomadQueryError('job-prefix', jobArg, err);
    }
  }

  let jobId = jobArg;
  let listedNamespace: string | undefined;
  if (stubs !== undefined) {
    const [first, second] = stubs;
    if (first === undefined) {
      throw new JobNotFoundError(jobArg);
    }
    const allNamespaces = namespace === '*';
    const ambiguous =
      second !== undefined && (first.ID !== jobArg || (allNamespaces && second.ID === first.ID));
    if (ambiguous) {
      throw new MultipleJobsMatchedError({
        prefix: jobArg,
        jobIds: stubs.map((stub) => stub.ID),
        table: formatPrefixMatches(stubs, { allNamespaces, truncated: stubs.length >= PREFIX_PAGE_SIZE }),
      });
    }
    jobId = first.ID;
    // Nomad reads JobSummary.Namespace (and crashes without it); the stub's own field is the fallback.
    listedNamespace = first.JobSummary?.Namespace || first.Namespace || undefined;
  }

  const infoNamespace = listedNamespace ?? namespace;
  let job: Job;
  try {
    const result = await client.jobs().info(jobId, {
      ...(infoNamespace === undefined ? {} : { namespace: infoNamespace }),
      ...(signal === undefined ? {} : { signal }),
    });
    job = result.value;
  } catch (err) {
    throw new NomadQueryError('job', jobId, err);
  }
  const resolvedNamespace = job.Namespace || infoNamespace;
  return { id: job.ID || jobId, namespace: resolvedNamespace === '*' ? undefined : resolvedNamespace, job };
}
