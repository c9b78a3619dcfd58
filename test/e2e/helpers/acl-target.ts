/**
 * Where the lock's ACL cases of the end-to-end suite run: a simulator with ACLs on, or the
 * ACL-enabled agent the suite was pointed at (acl-agent.ts). Either way the command holds exactly
 * the README's policy (read from the README), or that policy less one lock capability; on the
 * agent in a namespace of the suite's own, with a 3-allocation raw_exec job.
 */
import type { Allocation } from '../../../lib/nomad/types';
import { sharedLockPath } from '../../../lib/stores/shared-lock-settings';
import { createScaledClock, type RunningSimulator, startSimulator } from '../../../sim/index';
import {
  type LockCapability,
  OPERATOR_TOKEN,
  readmePolicyAcl,
  readmePolicyHcl,
} from '../../fixtures/readme-policy';
import { simpleJob } from '../../steps/helpers/harness';
import { AclAgent, onAclAgent, rawExecJob } from './acl-agent';

export { ACL_ADDR } from './acl-agent';

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
  return onAclAgent() ? agentTarget() : simulatorTarget(variant);
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

async function agentTarget(): Promise<AclTarget> {
  const agent = await AclAgent.open();
  const readme = readmePolicyHcl().replace('namespace "default"', 'namespace "NAMESPACE"');
  const tokens = new Map<PolicyVariant, string>();
  for (const variant of ['readme', 'without-read', 'without-write'] as const) {
    const without = variantOf(variant);
    tokens.set(
      variant,
      await agent.token(without === undefined ? readme : withoutCapability(readme, without)),
    );
  }
  await agent.register(rawExecJob(JOB, 'service', ALLOCATIONS, agent.namespace), ALLOCATIONS);
  return {
    sim: undefined,
    now: Date.now,
    env: (variant = 'readme') => ({
      NOMAD_ADDR: agent.address,
      NOMAD_TOKEN: tokens.get(variant) ?? '',
      NOMAD_NAMESPACE: agent.namespace,
    }),
    lockVariable: async () => {
      const res = await agent.get<{ Items: Record<string, string>; Lock?: unknown }>(
        `/v1/var/${sharedLockPath(JOB)}`,
      );
      return res.status === 404 ? undefined : { items: res.json.Items, locked: res.json.Lock !== undefined };
    },
    restartedSince: (sinceMs, expected) =>
      settled(async () => {
        const running = (await agent.allocations(JOB)).filter((a) => a.DesiredStatus === 'run');
        const signals = (await Promise.all(running.map((a) => agent.allocation(a.ID)))).map((a) =>
          restartSignals(a, sinceMs),
        );
        return {
          restarted: signals.filter((n) => n > 0).length,
          signals: signals.reduce((a, b) => a + b, 0),
        };
      }, expected),
    renewals: () => undefined,
    close: () => agent.close(),
  };
}
