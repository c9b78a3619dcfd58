/**
 * The job versions the plan matches allocations against, read only when the job read is not
 * enough. Nomad's command reads `/v1/job/:id/versions` on every run to know each allocation's own
 * job version (`command/job_restart.go` `Run`: `-task` matching, `allocHasTask`); the job read
 * already returns the current version's definition, so a plan whose allocations to filter are all
 * on that version needs no more. Any other version (an allocation left from before an update, a
 * job updated between the job read and the allocations read) costs the read, as in Nomad.
 */
import type { NomadClient } from '../../nomad/client';
import type { QueryOptions } from '../../nomad/query';
import type { AllocListStub, Job } from '../../nomad/types';
import { NomadQueryError } from '../../restart/errors';
import { isRestartCandidate } from '../../restart/filter';

/**
 * Whether the filter will look at `stub`'s own job version and `job` (the job read) is not it:
 * only an allocation that Nomad's first rules keep (running, not replaced, in a requested group)
 * reaches the `-task` match and the plan, the others are skipped on their stub alone.
 */
function needsOtherVersion(stub: AllocListStub, job: Job, groups: ReadonlySet<string>): boolean {
  if (!isRestartCandidate(stub) || (groups.size > 0 && !groups.has(stub.TaskGroup))) return false;
  return stub.JobVersion !== undefined && stub.JobVersion !== job.Version;
}

/**
 * The job's versions by number for the filter (lib/restart/filter.ts `filterAllocations`): the
 * job read alone when every allocation to filter is on its version, else Nomad's versions list.
 * A version without a number cannot be matched to an allocation; it is simply unknown.
 * @throws NomadQueryError (`versions`) with Nomad's message when the versions read fails
 */
export async function versionsToFilter(
  client: NomadClient,
  job: { readonly id: string; readonly definition: Job },
  stubs: readonly AllocListStub[],
  groups: readonly string[],
  query: QueryOptions,
): Promise<ReadonlyMap<number, Job>> {
  const wanted = new Set(groups);
  const byNumber = new Map<number, Job>();
  if (!stubs.some((stub) => needsOtherVersion(stub, job.definition, wanted))) {
    if (typeof job.definition.Version === 'number') byNumber.set(job.definition.Version, job.definition);
    return byNumber;
  }
  let versions: Job[];
  try {
    versions = (await client.jobs().versions(job.id, query)).value;
  } catch (err) {
    throw new NomadQueryError('versions', job.id, err);
  }
  for (const version of versions) {
    if (typeof version.Version === 'number') byNumber.set(version.Version, version);
  }
  return byNumber;
}
