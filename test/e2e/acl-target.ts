/**
 * Where the ACL cases of the end-to-end suite run: a simulator with ACLs on, or, with
 * `NOMAD_E2E_ACL_ADDR` and `NOMAD_E2E_ACL_TOKEN` (a management token of an ACL-enabled agent,
 * e.g. a `nomad agent -dev` with `acl { enabled = true }`, bootstrapped), that agent. Either way
 * the command holds exactly the README's policy (read from the README), or that policy less one
 * lock capability. On an agent the target makes a namespace of its own, the policies (the
 * README's with its namespace's name), a client token for each, and a 3-allocation raw_exec job,
 * and deletes all of it on close. A dev agent without ACLs treats every token as management and
 * would hide nothing, which is why these cases need one with ACLs.
 */
import { randomBytes } from 'node:crypto';
import type { Allocation, AllocListStub } from '../../lib/nomad/types';
import { SHARED_LOCK_PREFIX, sharedLockPath } from '../../lib/stores/nomad-variables-lock';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../sim/index';
import {
  type LockCapability,
  OPERATOR_TOKEN,
  readmePolicyAcl,
  readmePolicyHcl,
} from '../fixtures/readme-policy';
import { call, eventually, get, put } from '../sim/helpers/http';
import { simpleJob } from '../steps/harness';

export const ACL_ADDR = process.env['NOMAD_E2E_ACL_ADDR'];
const ACL_MANAGEMENT = process.env['NOMAD_E2E_ACL_TOKEN'];

/** Which token a case runs the command with: the README's policy, or it less one capability. */
export type PolicyVariant = 'readme' | `without-${LockCapability}`;

/** The job every ACL case restarts. */
export const JOB = 'web';
export const ALLOCATIONS = 3;

/** Restarts seen: allocations restarted, and `Restart Signaled` events in all. */
export interface Restarts {
  readonly restarted: number;
  readonly signals: number;
}

/** Reads `read` until it equals `expected`, or gives the last reading after 15 s. */
async function settled(read: () => Promise<Restarts>, expected: Restarts): Promise<Restarts> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const seen = await read();
    if ((seen.restarted === expected.restarted && seen.signals === expected.signals) || Date.now() > deadline)
      return seen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface AclTarget {
  /** The command's environment for `variant`: address, token, namespace. */
  env(variant?: PolicyVariant): Record<string, string>;
  /** The job's lock variable as a management token reads it (`locked`: a lock is on it). */
  lockVariable(): Promise<{ items: Record<string, string>; locked: boolean } | undefined>;
  /** The target's clock (Unix ms): the simulator's runs faster than the wall's. */
  now(): number;
  /**
   * How many of the job's allocations got a `Restart Signaled` since `sinceMs`, and how many in
   * all: once they reach `expected`, or as last read after 15 s (a real client reports task events
   * to the servers a moment after the fact; the test's assertion then shows the difference).
   */
  restartedSince(sinceMs: number, expected: Restarts): Promise<Restarts>;
  /** Lock renewals the command sent (the simulator's request log); `undefined` on an agent. */
  renewals(): number | undefined;
  /** The simulator, for what only it can do (an older Nomad's variables API). */
  readonly sim: RunningSimulator | undefined;
  close(): Promise<void>;
}

const variantOf = (variant: PolicyVariant): LockCapability | undefined =>
  variant === 'readme' ? undefined : (variant.slice('without-'.length) as LockCapability);

/** Opens the simulator (one per variant: its token is the variant's) or the ACL agent. */
export async function openAclTarget(variant: PolicyVariant = 'readme'): Promise<AclTarget> {
  return ACL_ADDR === undefined || ACL_MANAGEMENT === undefined
    ? simulatorTarget(variant)
    : agentTarget(ACL_ADDR, ACL_MANAGEMENT);
}

function restartSignals(allocation: Allocation, sinceMs: number): number {
  return Math.max(
    0,
    ...Object.values(allocation.TaskStates ?? {}).map(
      (state) =>
        (state.Events ?? []).filter((e) => e.Type === 'Restart Signaled' && e.Time >= sinceMs * 1e6).length,
    ),
  );
}

async function simulatorTarget(variant: PolicyVariant): Promise<AclTarget> {
  const clock = createScaledClock(0.01);
  const sim = await startSimulator({
    clock,
    scenario: {
      nodes: [{ name: 'n1' }],
      jobs: [simpleJob(JOB, 'service', ALLOCATIONS)],
      acl: readmePolicyAcl(['default'], variantOf(variant)),
    },
  });
  await sim.control.waitFor(
    (s) => s.allocations({ jobId: JOB }).filter((a) => a.ClientStatus === 'running').length === ALLOCATIONS,
  );
  return {
    sim,
    now: () => clock.now(),
    env: () => ({ NOMAD_ADDR: sim.address, NOMAD_TOKEN: OPERATOR_TOKEN }),
    lockVariable: async () => {
      const variable = sim.control.state().variable('default', sharedLockPath(JOB));
      return variable === undefined
        ? undefined
        : { items: variable.items, locked: variable.lock !== undefined };
    },
    restartedSince: (sinceMs, expected) =>
      settled(async () => {
        const signals = sim.control
          .state()
          .allocations({ jobId: JOB })
          .map((a) => restartSignals(a, sinceMs));
        return {
          restarted: signals.filter((n) => n > 0).length,
          signals: signals.reduce((a, b) => a + b, 0),
        };
      }, expected),
    renewals: () => sim.control.requestLog().filter((r) => r.query.includes('lock-renew')).length,
    close: () => sim.close(),
  };
}

/** The raw_exec job of the agent's cases: it sleeps, and restarts in place in a moment. */
function rawExecJob(namespace: string) {
  return {
    Job: {
      ID: JOB,
      Name: JOB,
      Namespace: namespace,
      Type: 'service',
      Datacenters: ['*'],
      TaskGroups: [
        {
          Name: JOB,
          Count: ALLOCATIONS,
          Tasks: [
            {
              Name: 'sleep',
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

/** The policy with `capability` taken out of the lock path's list (and nowhere else). */
function withoutCapability(policy: string, capability: LockCapability): string {
  return policy.replace(
    /(path "nomad-restart\/locks\/\*" \{ capabilities = \[)([^\]]*)\]/,
    (_m, head: string, list: string) => {
      const kept = list
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== `"${capability}"`);
      return `${head}${kept.join(', ')}]`;
    },
  );
}

async function agentTarget(address: string, management: string): Promise<AclTarget> {
  const namespace = `e2e-acl-${randomBytes(4).toString('hex')}`;
  const made: Array<() => Promise<unknown>> = [];
  const must = async <T>(what: string, answer: Promise<{ status: number; text: string; json: T }>) => {
    const res = await answer;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.json;
  };
  await must('namespace', put(address, `/v1/namespace/${namespace}`, { Name: namespace }, management));
  made.push(() => call(address, `/v1/namespace/${namespace}`, { method: 'DELETE', token: management }));
  const readme = readmePolicyHcl().replace('namespace "default"', `namespace "${namespace}"`);
  const tokens = new Map<PolicyVariant, string>();
  for (const variant of ['readme', 'without-read', 'without-write', 'without-destroy'] as const) {
    const without = variantOf(variant);
    const rules = without === undefined ? readme : withoutCapability(readme, without);
    const name = `${namespace}-${variant}`;
    await must('policy', put(address, `/v1/acl/policy/${name}`, { Name: name, Rules: rules }, management));
    made.push(() => call(address, `/v1/acl/policy/${name}`, { method: 'DELETE', token: management }));
    const token = await must<{ SecretID: string; AccessorID: string }>(
      'token',
      put(address, '/v1/acl/token', { Name: name, Type: 'client', Policies: [name] }, management),
    );
    made.push(() =>
      call(address, `/v1/acl/token/${token.AccessorID}`, { method: 'DELETE', token: management }),
    );
    tokens.set(variant, token.SecretID);
  }
  await must('job', put(address, '/v1/jobs', rawExecJob(namespace), management));
  const ns = `namespace=${namespace}`;
  const allocations = async () =>
    (await get<AllocListStub[]>(address, `/v1/job/${JOB}/allocations?${ns}`, management)).json ?? [];
  await eventually(
    async () =>
      (await allocations()).filter((a) => a.ClientStatus === 'running').length === ALLOCATIONS
        ? true
        : undefined,
    60_000,
  );
  // A restart during the job's first deployment is refused (Nomad's deployment guard): wait it out.
  await eventually(async () => {
    const deployments =
      (await get<Array<{ Status: string }>>(address, `/v1/job/${JOB}/deployments?${ns}`, management)).json ??
      [];
    return deployments.every((d) => ['successful', 'failed', 'cancelled'].includes(d.Status))
      ? true
      : undefined;
  }, 60_000);
  return {
    sim: undefined,
    now: Date.now,
    env: (variant = 'readme') => ({
      NOMAD_ADDR: address,
      NOMAD_TOKEN: tokens.get(variant) ?? '',
      NOMAD_NAMESPACE: namespace,
    }),
    lockVariable: async () => {
      const res = await get<{ Items: Record<string, string>; Lock?: unknown }>(
        address,
        `/v1/var/${sharedLockPath(JOB)}?${ns}`,
        management,
      );
      return res.status === 404 ? undefined : { items: res.json.Items, locked: res.json.Lock !== undefined };
    },
    restartedSince: (sinceMs, expected) =>
      settled(async () => {
        const running = (await allocations()).filter((a) => a.DesiredStatus === 'run');
        const full = await Promise.all(
          running.map(
            async (a) => (await get<Allocation>(address, `/v1/allocation/${a.ID}?${ns}`, management)).json,
          ),
        );
        const signals = full.map((a) => restartSignals(a, sinceMs));
        return {
          restarted: signals.filter((n) => n > 0).length,
          signals: signals.reduce((a, b) => a + b, 0),
        };
      }, expected),
    renewals: () => undefined,
    close: async () => {
      await call(address, `/v1/job/${JOB}?purge=true&${ns}`, { method: 'DELETE', token: management });
      const left =
        (
          await get<Array<{ Path: string }>>(
            address,
            `/v1/vars?prefix=${SHARED_LOCK_PREFIX}&${ns}`,
            management,
          )
        ).json ?? [];
      for (const v of left)
        await call(address, `/v1/var/${v.Path}?${ns}`, { method: 'DELETE', token: management });
      for (const undo of made.reverse()) await undo();
    },
  };
}
