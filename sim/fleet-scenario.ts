/**
 * Fleet scenarios: the bundled one (`scenarios/fleet.json`: three namespaces, two node pools, two
 * datacenters, six nodes, twenty jobs of every kind a fleet must tell apart) and a generator for
 * the scale benchmark (`fleetScenario({ jobs: 5000, allocationsPerJob: 40 })`: 200,000
 * allocations across namespaces, pools and datacenters).
 */
import type { Job } from '../lib/nomad/types';
import { loadScenarioFile } from './scenario';
import type { Scenario } from './types';

/** Sizes of a generated fleet. */
export interface FleetScenarioOptions {
  /** Service jobs, each `allocationsPerJob` allocations. @default 5000 */
  readonly jobs?: number;
  /** @default 40 */
  readonly allocationsPerJob?: number;
  /** Namespaces, `default` included. @default 5 */
  readonly namespaces?: number;
  /** Nodes, across two datacenters; every tenth is in the `gpu` pool. @default 500 */
  readonly nodes?: number;
  /**
   * Besides the services, this many jobs of each kind a fleet skips (sysbatch, stopped, periodic
   * parent with one child, parameterized parent with one dispatched child). @default 0
   */
  readonly otherKinds?: number;
}

/** Teams the generated jobs' `Meta.team` cycle through. */
export const FLEET_TEAMS = ['payments', 'search', 'platform', 'data', 'web', 'mobile', 'ml', 'infra'];

/** The management token and the fleet token (the fleet's least privilege) of the fleet scenarios. */
export const FLEET_TOKENS = { management: 'management-secret', fleet: 'fleet-secret' } as const;

/** The bundled fleet scenario (`scenarios/fleet.json`). */
export function bundledFleetScenario(): Scenario {
  return loadScenarioFile(new URL('./scenarios/fleet.json', import.meta.url).pathname);
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
/** A UUID-shaped ID that is the same for the same index, with distinct 8-character prefixes. */
const nodeId = (i: number) => `${hex((i * 2654435761) >>> 0, 8)}-0000-4000-8000-${hex(i, 12)}`;
const task = { Name: 'main', Driver: 'mock_driver', Config: {} };

/** A generated fleet: deterministic, so a benchmark's runs compare. */
export function fleetScenario(options: FleetScenarioOptions = {}): Scenario {
  const { jobs = 5000, allocationsPerJob = 40, namespaces = 5, nodes = 500, otherKinds = 0 } = options;
  const namespaceNames = ['default', ...Array.from({ length: namespaces - 1 }, (_, i) => `ns-${i + 1}`)];
  const nsOf = (i: number) => namespaceNames[i % namespaceNames.length] ?? 'default';
  const generated: Job[] = Array.from({ length: jobs }, (_, i) => ({
    ID: `svc-${String(i).padStart(5, '0')}`,
    Namespace: nsOf(i),
    Type: 'service',
    Datacenters: ['dc1', 'dc2'],
    Priority: 30 + ((i * 7) % 70),
    Meta: { team: FLEET_TEAMS[i % FLEET_TEAMS.length] ?? 'infra' },
    TaskGroups: [{ Name: 'app', Count: allocationsPerJob, Tasks: [task] }],
  }));
  for (let k = 0; k < otherKinds; k++) generated.push(...otherKindJobs(k, nsOf(k)));
  return {
    namespaces: namespaceNames.slice(1),
    nodePools: [{ name: 'gpu', description: 'Nodes with GPUs' }],
    nodes: Array.from({ length: nodes }, (_, i) => ({
      id: nodeId(i),
      name: `client-${i}`,
      datacenter: i % 2 === 0 ? 'dc1' : 'dc2',
      ...(i % 10 === 9 ? { pool: 'gpu' } : {}),
    })),
    jobs: generated,
  };
}

/** One job of each kind a fleet skips, and the children of the parents. */
function otherKindJobs(k: number, namespace: string): Job[] {
  const batch = (ID: string, extra: Partial<Job> = {}): Job => ({
    ID,
    Namespace: namespace,
    Type: 'batch',
    Datacenters: ['dc1', 'dc2'],
    Meta: { team: 'data' },
    TaskGroups: [{ Name: 'work', Count: 1, Tasks: [task] }],
    ...extra,
  });
  return [
    batch(`sysbatch-${k}`, { Type: 'sysbatch' }),
    batch(`stopped-${k}`, { Type: 'service', Stop: true }),
    batch(`nightly-${k}`, { Periodic: { Enabled: true, Spec: '0 3 * * *', SpecType: 'cron' } }),
    batch(`nightly-${k}/periodic-1764990000`, { ParentID: `nightly-${k}` }),
    batch(`reindex-${k}`, { ParameterizedJob: { Payload: 'optional' } }),
    Object.assign(batch(`reindex-${k}/dispatch-1764990000-${hex(k, 8)}`, { ParentID: `reindex-${k}` }), {
      Dispatched: true,
    }),
  ];
}
