/**
 * The fleet plan's reads for `-uses-variable`/`-uses-secret`/`-stale`: each candidate job's
 * specification, read at most once per run (`GET /v1/job/:id`) and not at all when the run before
 * kept its reads at the same `JobModifyIndex`, to tell its consumers from the rest; then,
 * with `-stale`, the variables' metadata, listed once per path and namespace (`GET
 * /v1/vars?prefix=`), from which each consumer gets its own time.
 */

import {
  type ConsumerVerdict,
  consumerVerdict,
  type JobReads,
  jobReads,
  type OpaqueTemplate,
  type PathPattern,
  parsePathPattern,
  type VariableRead,
} from '../../fleet/consumers';
import type { FleetSelection } from '../../fleet/options';
import {
  type ListedVariable,
  listingKey,
  listingsFor,
  nanosToMs,
  patternText,
  staleTime,
  type VariableListing,
} from '../../fleet/stale';
import type { NomadClient } from '../../nomad/client';
import { UnexpectedResponseError } from '../../nomad/errors';
import { InvalidInputError } from '../../workflow/errors';
import { jobKey } from './fleet-listing';
import type { CachedJobReads } from './job-reads-cache';

/** A candidate job, as the plan names it. */
export interface CandidateJob {
  readonly namespace: string;
  readonly id: string;
  /** Its `JobModifyIndex` in the listing: a cached read at the same index is still the job's. */
  readonly modifyIndex?: number;
}

/** How many variables one listing found: the plan's line for each path and namespace. */
export interface VariablesFound {
  readonly namespace: string;
  /** The `-uses-variable` path as given (`*` kept). */
  readonly path: string;
  readonly found: number;
}

/** What the scan decided for the candidates. */
export interface ConsumerScan {
  /** Consumers by job key, with their `-stale` time (Unix ms) when `-stale` was given. */
  readonly consumers: Map<string, { readonly startedBefore?: number }>;
  /** Jobs whose templates could not be inspected and that no read showed to be consumers. */
  readonly notInspectable: Map<string, readonly OpaqueTemplate[]>;
  /** With `-stale`: each listing's count, in the order made. */
  readonly variables: readonly VariablesFound[];
  /** Specifications read from Nomad: one per candidate job whose cached reads were not current. */
  readonly inspected: number;
  /** Each candidate's reads at its `JobModifyIndex`, to keep for the next run. */
  readonly reads: ReadonlyMap<string, CachedJobReads>;
  /** Variables listings made (`-stale`): one per path and namespace. */
  readonly listings: number;
}

/** The paths as patterns, once each. */
const patternsOf = (paths: readonly string[] | undefined): PathPattern[] =>
  (paths ?? []).map(parsePathPattern);

/** A job's specification, or `undefined` when it was deleted since the listing (Nomad's 404). */
async function readSpec(nomad: NomadClient, job: CandidateJob, signal: AbortSignal | undefined) {
  try {
    const q = { namespace: job.namespace, ...(signal === undefined ? {} : { signal }) };
    return (await nomad.jobs().info(job.id, q)).value;
  } catch (err) {
    if (err instanceof UnexpectedResponseError && err.statusCode === 404) return undefined;
    throw err;
  }
}

/**
 * Each listing's variables, refused when one finds none: Nomad leaves out of a listing, without an
 * error, the variables the token may not `list`, so none found may be a policy that hides them, and
 * `-stale` would then see nothing change.
 */
async function listVariables(
  nomad: NomadClient,
  listings: readonly VariableListing[],
  signal: AbortSignal | undefined,
): Promise<{ listed: ListedVariable[]; found: VariablesFound[] }> {
  const listed: ListedVariable[] = [];
  const found: VariablesFound[] = [];
  for (const { namespace, pattern } of listings) {
    const q = { namespace, ...(signal === undefined ? {} : { signal }) };
    const variables = await nomad.variables().list(pattern.path, q);
    const selected = variables.filter((v) => (pattern.prefix ? true : v.Path === pattern.path));
    const path = patternText(pattern);
    if (selected.length === 0) {
      throw new InvalidInputError(
        `No variable found under ${JSON.stringify(path)} in namespace ${JSON.stringify(namespace)} for -stale: ` +
          `none exists there, or the token lacks the variables "list" capability on that path ` +
          '(Nomad leaves out of a listing, without an error, the variables a token may not list)',
      );
    }
    found.push({ namespace, path, found: selected.length });
    for (const v of selected)
      listed.push({ namespace, path: v.Path, modifiedAt: nanosToMs(v.ModifyTime ?? v.CreateTime ?? 0) });
  }
  return { listed, found };
}

/**
 * Each candidate's reads: from `known` when cached at the job's current `JobModifyIndex`, else from
 * its specification (a job deleted since the listing has none).
 */
async function readsOfCandidates(
  nomad: NomadClient,
  candidates: readonly CandidateJob[],
  known: ReadonlyMap<string, CachedJobReads>,
  signal: AbortSignal | undefined,
): Promise<{ reads: Map<string, CachedJobReads>; inspected: number; uncached: Map<string, JobReads> }> {
  const reads = new Map<string, CachedJobReads>();
  const uncached = new Map<string, JobReads>();
  let inspected = 0;
  for (const job of candidates) {
    const key = jobKey(job.namespace, job.id);
    const cached = known.get(key);
    if (cached !== undefined && cached.index === job.modifyIndex) {
      reads.set(key, cached);
      continue;
    }
    inspected += 1;
    const spec = await readSpec(nomad, job, signal);
    if (spec === undefined) continue;
    const jobReadsNow = jobReads(spec);
    // A job listed without an index (never from Nomad) is read every time: nothing to key it by.
    if (job.modifyIndex === undefined) uncached.set(key, jobReadsNow);
    else reads.set(key, { index: job.modifyIndex, reads: jobReadsNow });
  }
  return { reads, inspected, uncached };
}

/**
 * Reads each candidate's specification (or its cached reads, `known`, at the same
 * `JobModifyIndex`) and keeps the consumers of `selection`'s paths. A job whose
 * templates cannot be inspected is kept only when `-filter` selected it too (the operator's filter
 * vouches for it); with `-stale` it is then taken to read every variable its namespace has under
 * the paths. With `-stale`, a consumer that reads none of the variables listed is no consumer.
 */
export async function scanConsumers(
  nomad: NomadClient,
  candidates: readonly CandidateJob[],
  selection: FleetSelection,
  stale: boolean,
  signal?: AbortSignal,
  known: ReadonlyMap<string, CachedJobReads> = new Map(),
): Promise<ConsumerScan> {
  const usesVariables = patternsOf(selection.usesVariables);
  const usesSecrets = patternsOf(selection.usesSecrets);
  const { reads, inspected, uncached } = await readsOfCandidates(nomad, candidates, known, signal);
  const verdicts: { job: CandidateJob; verdict: ConsumerVerdict }[] = [];
  for (const job of candidates) {
    const key = jobKey(job.namespace, job.id);
    const jobReadsNow = reads.get(key)?.reads ?? uncached.get(key);
    if (jobReadsNow !== undefined)
      verdicts.push({ job, verdict: consumerVerdict(jobReadsNow, usesVariables, usesSecrets) });
  }
  const vouched = selection.filter !== undefined;
  const readsOf = new Map<string, readonly VariableRead[]>();
  const notInspectable = new Map<string, readonly OpaqueTemplate[]>();
  for (const { job, verdict } of verdicts) {
    const key = jobKey(job.namespace, job.id);
    if (verdict.kind === 'consumer') readsOf.set(key, verdict.variables);
    else if (verdict.kind === 'not-inspectable' && vouched) readsOf.set(key, usesVariables);
    else if (verdict.kind === 'not-inspectable') notInspectable.set(key, verdict.templates);
  }
  const consumers = new Map<string, { startedBefore?: number }>();
  if (!stale) {
    for (const key of readsOf.keys()) consumers.set(key, {});
    return { consumers, notInspectable, variables: [], inspected, reads, listings: 0 };
  }
  const listings = new Map<string, VariableListing>();
  for (const { job } of verdicts) {
    const reads = readsOf.get(jobKey(job.namespace, job.id));
    if (reads === undefined) continue;
    for (const listing of listingsFor(job.namespace, reads, usesVariables))
      listings.set(listingKey(listing), listing);
  }
  const { listed, found } = await listVariables(nomad, [...listings.values()], signal);
  for (const { job } of verdicts) {
    const key = jobKey(job.namespace, job.id);
    const reads = readsOf.get(key);
    const time = reads === undefined ? undefined : staleTime(job.namespace, reads, usesVariables, listed);
    if (time !== undefined) consumers.set(key, { startedBefore: time });
  }
  return {
    consumers,
    notInspectable,
    variables: found,
    inspected,
    reads,
    listings: listings.size,
  };
}
