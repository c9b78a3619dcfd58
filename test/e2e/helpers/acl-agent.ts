/**
 * An ACL-enabled Nomad agent the end-to-end suite was pointed at (`NOMAD_E2E_ACL_ADDR`, with a
 * management token in `NOMAD_E2E_ACL_TOKEN`): a namespace of the suite's own on it, policies and
 * client tokens made for the case, raw_exec jobs registered and waited on, and everything removed
 * again on close. A dev agent without ACLs treats every token as management and hides nothing,
 * which is why the ACL cases need one with ACLs on (`acl { enabled = true }`, bootstrapped).
 */
import { randomBytes } from 'node:crypto';
import type { Allocation, AllocListStub } from '../../../lib/nomad/types';
import { SHARED_LOCK_PREFIX } from '../../../lib/stores/shared-lock-settings';
import { call, eventually, get, put, type WireResponse } from '../../sim/helpers/http';

export const ACL_ADDR = process.env['NOMAD_E2E_ACL_ADDR'];
const ACL_MANAGEMENT = process.env['NOMAD_E2E_ACL_TOKEN'];

/** Whether the suite was pointed at an ACL-enabled agent (both variables set). */
export const onAclAgent = (): boolean => ACL_ADDR !== undefined && ACL_MANAGEMENT !== undefined;

/** A raw_exec job that sleeps (it restarts in place in a moment), as `PUT /v1/jobs` takes it. */
export function rawExecJob(
  id: string,
  type: 'service' | 'batch' | 'system',
  count: number,
  namespace: string,
) {
  return {
    Job: {
      ID: id,
      Name: id,
      Namespace: namespace,
      Type: type,
      Datacenters: ['*'],
      TaskGroups: [
        {
          Name: 'group1',
          Count: count,
          Tasks: [
            {
              Name: 'task1',
              Driver: 'raw_exec',
              Config: { command: '/bin/sleep', args: ['100000'] },
              Resources: { CPU: 20, MemoryMB: 16 },
            },
          ],
        },
      ],
    },
  };
}

const OVER = ['successful', 'failed', 'cancelled'];

export class AclAgent {
  private readonly undo: Array<() => Promise<unknown>> = [];
  private readonly jobs: string[] = [];

  private constructor(
    public readonly address: string,
    private readonly management: string,
    /** The suite's own namespace on the agent. */
    public readonly namespace: string,
  ) {}

  /** Makes the suite's namespace on the agent at `NOMAD_E2E_ACL_ADDR`. */
  public static async open(): Promise<AclAgent> {
    if (ACL_ADDR === undefined || ACL_MANAGEMENT === undefined) throw new Error('no ACL agent given');
    const agent = new AclAgent(ACL_ADDR, ACL_MANAGEMENT, `e2e-acl-${randomBytes(4).toString('hex')}`);
    await agent.must(
      'namespace',
      put(agent.address, `/v1/namespace/${agent.namespace}`, { Name: agent.namespace }, agent.management),
    );
    agent.undo.push(() => agent.remove(`/v1/namespace/${agent.namespace}`));
    return agent;
  }

  /** `?namespace=` of the suite's namespace. */
  public get ns(): string {
    return `namespace=${this.namespace}`;
  }

  /** A client token holding a policy of `rules` (HCL; `NAMESPACE` stands for the suite's namespace). */
  public async token(rules: string): Promise<string> {
    const name = `${this.namespace}-${this.undo.length}`;
    const policy = { Name: name, Rules: rules.replaceAll('NAMESPACE', this.namespace) };
    await this.must('policy', put(this.address, `/v1/acl/policy/${name}`, policy, this.management));
    this.undo.push(() => this.remove(`/v1/acl/policy/${name}`));
    const token = await this.must<{ SecretID: string; AccessorID: string }>(
      'token',
      put(this.address, '/v1/acl/token', { Name: name, Type: 'client', Policies: [name] }, this.management),
    );
    this.undo.push(() => this.remove(`/v1/acl/token/${token.AccessorID}`));
    return token.SecretID;
  }

  /** Registers `job` and waits until `running` of its allocations run and its deployments are over. */
  public async register(job: ReturnType<typeof rawExecJob>, running: number): Promise<void> {
    await this.must('job', put(this.address, '/v1/jobs', job, this.management));
    this.jobs.push(job.Job.ID);
    await eventually(
      async () =>
        (await this.allocations(job.Job.ID)).filter((a) => a.ClientStatus === 'running').length === running
          ? true
          : undefined,
      60_000,
    );
    // A restart during the job's first deployment is refused (Nomad's deployment guard): wait it out.
    await eventually(async () => {
      const deployments =
        (await this.get<Array<{ Status: string }>>(`/v1/job/${job.Job.ID}/deployments`)).json ?? [];
      return deployments.every((d) => OVER.includes(d.Status)) ? true : undefined;
    }, 60_000);
  }

  public async allocations(jobId: string): Promise<AllocListStub[]> {
    return (await this.get<AllocListStub[]>(`/v1/job/${jobId}/allocations`)).json ?? [];
  }

  public async allocation(id: string): Promise<Allocation> {
    return (await this.get<Allocation>(`/v1/allocation/${id}`)).json;
  }

  /** A GET in the suite's namespace with the management token. */
  public get<T>(path: string): Promise<WireResponse<T>> {
    return get<T>(this.address, `${path}${path.includes('?') ? '&' : '?'}${this.ns}`, this.management);
  }

  /** Purges the jobs, deletes the lock variables left, the tokens, the policies and the namespace. */
  public async close(): Promise<void> {
    for (const id of this.jobs) await this.remove(`/v1/job/${id}?purge=true&${this.ns}`);
    const left =
      (await this.get<Array<{ Path: string }>>(`/v1/vars?prefix=${SHARED_LOCK_PREFIX}`)).json ?? [];
    for (const v of left) await this.remove(`/v1/var/${v.Path}?${this.ns}`);
    for (const undo of this.undo.reverse()) await undo();
  }

  private remove(path: string): Promise<unknown> {
    return call(this.address, path, { method: 'DELETE', token: this.management });
  }

  private async must<T>(what: string, answer: Promise<WireResponse<T>>): Promise<T> {
    const res = await answer;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.json;
  }
}
