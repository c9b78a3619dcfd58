/** The control API: the in-process {@link SimControl} object and its HTTP face under `/_sim`. */
import type { Acl } from './acl';
import { badField, field, targetFromBody } from './control-body';
import { parseGoDuration } from './duration';
import { SimControlError, SimHttpError, SimScenarioError, SimWaitTimeoutError } from './errors';
import type { ApiRequest, ApiResponse } from './http/api';
import { decodeControlJob } from './http/endpoints/jobs';
import type { Faults } from './http/faults';
import type { RequestStats } from './http/stats';
import { checkHistory } from './model/checks';
import type { Cluster } from './model/cluster';
import { parseJsonBody } from './model/job-spec';
import { renderAlloc, renderJob } from './model/render';
import { decodeScenario } from './scenario';
import type { Fault, Scenario, SimCheckBehaviour, SimControl, SimStateView, StateFilter } from './types';

function matches(filter: StateFilter | undefined, jobId: string, namespace: string | undefined): boolean {
  if (filter?.jobId !== undefined && filter.jobId !== jobId) return false;
  return filter?.namespace === undefined || filter.namespace === (namespace ?? 'default');
}

/** Builds the control object over one cluster. */
export function createControl(cluster: Cluster, acl: Acl, faults: Faults, stats: RequestStats): SimControl {
  const { store } = cluster.ctx;
  const state = (): SimStateView => ({
    index: store.index,
    jobs: () => structuredClone([...store.jobs.values()].map((r) => renderJob(store, r))),
    job: (id, namespace = 'default') => {
      const record = [...store.jobs.values()].find((r) => r.id === id && r.namespace === namespace);
      return record ? structuredClone(renderJob(store, record)) : undefined;
    },
    allocations: (filter) =>
      structuredClone(
        [...store.allocs.values()]
          .filter((r) => matches(filter, r.alloc.JobID, r.alloc.Namespace))
          .map(renderAlloc),
      ),
    allocation: (id) => {
      const record = store.allocs.get(id);
      return record ? structuredClone(renderAlloc(record)) : undefined;
    },
    variable: (namespace, path) => {
      const record = cluster.variables.read(namespace, path);
      if (record === undefined) return undefined;
      const { lock } = record;
      return {
        items: { ...record.items },
        ...(lock === undefined ? {} : { lock: { id: lock.id, ttl: lock.ttl, lockDelay: lock.delay } }),
      };
    },
    evaluations: (filter) =>
      structuredClone([...store.evals.values()].filter((e) => matches(filter, e.JobID, e.Namespace))),
    deployments: (filter) =>
      structuredClone([...store.deployments.values()].filter((d) => matches(filter, d.JobID, d.Namespace))),
    nodes: () => structuredClone([...store.nodes.values()].map((r) => r.node)),
    heldQueries: () => store.heldQueries(),
    checkRuns: (id) => {
      const record = store.allocs.get(id);
      return record ? structuredClone(checkHistory(record)) : {};
    },
  });

  const control: SimControl = {
    seed(scenario: Scenario) {
      const decoded = decodeScenario(scenario);
      for (const ns of decoded.namespaces ?? []) cluster.addNamespace(ns);
      for (const pool of decoded.nodePools ?? []) cluster.addNodePool(pool);
      for (const node of decoded.nodes) cluster.addNode(node);
      if (decoded.acl) acl.configure(decoded.acl);
      for (const v of decoded.variables ?? [])
        cluster.variables.set(v.namespace ?? 'default', v.path, v.items, parseGoDuration(v.age ?? '0s'));
      for (const job of decoded.jobs) {
        const j = 'Job' in job ? job.Job : job;
        try {
          cluster.registerJob(j, j.Namespace || 'default', true);
        } catch (error) {
          if (error instanceof SimHttpError) {
            throw new SimScenarioError(`Invalid scenario job "${j.ID}": ${error.message}`, { cause: error });
          }
          throw error;
        }
      }
    },
    registerJob(job, namespace) {
      const result = cluster.registerJob(job, namespace ?? (job.Namespace || 'default'));
      return { evalId: result.EvalID, index: result.Index };
    },
    setNodeStatus: (nodeId, status) => cluster.setNodeStatus(nodeId, status),
    setNodeEligibility: (nodeId, eligible) => cluster.setNodeEligibility(nodeId, eligible),
    setDeploymentStatus: (id, status) => cluster.setDeploymentStatus(id, status),
    startPendingAllocation: (id) => cluster.startPendingAllocation(id),
    garbageCollect: (id) => cluster.garbageCollect(id),
    setCheckBehaviour: (target, check, behaviour) => cluster.setCheckBehaviour(target, check, behaviour),
    crashOnStart: (target, crash = {}) => {
      const { task, ...rest } = crash;
      cluster.crashOnStart(target, task, rest);
    },
    setVariablesApi: (api) => {
      cluster.variables.api = api;
    },
    injectFault: (fault: Fault) => faults.add(fault),
    onRequest: (trigger, action) => faults.addTrigger(trigger, action),
    clearFaults: () => faults.clear(),
    counters: () => stats.counters(),
    requestRates: () => stats.rates(),
    requestLog: () => stats.requests(),
    resetCounters: () => stats.reset(),
    reset() {
      cluster.reset();
      acl.configure(undefined);
      faults.clear();
      stats.reset();
    },
    state,
    waitFor(predicate, timeoutMs = 10_000) {
      if (predicate(state())) return Promise.resolve();
      return new Promise((resolve, reject) => {
        // An infinite budget sets no timer (Node would fire an oversized one at once).
        const timer = Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              unsubscribe();
              reject(new SimWaitTimeoutError(`waitFor: condition not met within ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
        const unsubscribe = store.onWrite(() => {
          if (!predicate(state())) return;
          clearTimeout(timer);
          unsubscribe();
          resolve();
        });
      });
    },
  };
  return control;
}

const CHECK_BEHAVIOURS = ['passing', 'failing-after-restart', 'flapping', 'never-passing'];

function setCheckFromBody(c: SimControl, body: unknown): void {
  const check = field(body, 'check');
  const behaviour = field(body, 'behaviour');
  const flaps = field(body, 'flaps');
  if (typeof check !== 'string') throw badField('check', check, 'a check name (string)');
  if (typeof behaviour !== 'string' || !CHECK_BEHAVIOURS.includes(behaviour))
    throw badField('behaviour', behaviour, CHECK_BEHAVIOURS.map((b) => `"${b}"`).join(', '));
  if (flaps !== undefined && (typeof flaps !== 'number' || !Number.isInteger(flaps) || flaps < 1))
    throw badField('flaps', flaps, 'an integer of at least 1');
  c.setCheckBehaviour(
    targetFromBody(body),
    check,
    (behaviour === 'flapping' && typeof flaps === 'number'
      ? { behaviour, flaps }
      : { behaviour }) as SimCheckBehaviour,
  );
}

function crashFromBody(c: SimControl, body: unknown): void {
  const task = field(body, 'task');
  const exitCode = field(body, 'exitCode');
  const afterMs = field(body, 'afterMs');
  if (task !== undefined && typeof task !== 'string') throw badField('task', task, 'a task name (string)');
  if (exitCode !== undefined && (typeof exitCode !== 'number' || !Number.isInteger(exitCode)))
    throw badField('exitCode', exitCode, 'an integer');
  if (afterMs !== undefined && (typeof afterMs !== 'number' || afterMs < 0))
    throw badField('afterMs', afterMs, 'a number of simulated ms, at least 0');
  c.crashOnStart(targetFromBody(body), {
    ...(task === undefined ? {} : { task }),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(afterMs === undefined ? {} : { afterMs }),
  });
}

type ControlRoute = (control: SimControl, body: () => unknown, id: string) => ApiResponse | undefined;

const CONTROL_ROUTES: Array<[RegExp, ControlRoute]> = [
  [/^POST \/seed$/, (c, body) => void c.seed(body() as Scenario)],
  [
    /^POST \/jobs$/,
    (c, body) => {
      const b = body();
      const namespace = field(b, 'Namespace', 'namespace');
      return {
        status: 200,
        body: c.registerJob(decodeControlJob(b), typeof namespace === 'string' ? namespace : undefined),
      };
    },
  ],
  [
    /^PUT \/node\/([^/]+)\/status$/,
    (c, body, id) => {
      const status = field(body(), 'status', 'Status');
      if (status !== 'ready' && status !== 'down' && status !== 'disconnected') {
        throw new SimHttpError(
          400,
          `Invalid node status ${JSON.stringify(status)}: expected "ready", "down" or "disconnected"`,
        );
      }
      c.setNodeStatus(id, status);
      return undefined;
    },
  ],
  [
    /^PUT \/node\/([^/]+)\/eligibility$/,
    (c, body, id) => {
      const eligible = field(body(), 'eligible', 'Eligible');
      if (typeof eligible !== 'boolean') {
        throw new SimHttpError(
          400,
          `Invalid eligibility ${JSON.stringify(eligible)}: expected true or false`,
        );
      }
      c.setNodeEligibility(id, eligible);
      return undefined;
    },
  ],
  [
    /^PUT \/deployment\/([^/]+)\/status$/,
    (c, body, id) => {
      const status = field(body(), 'status', 'Status');
      if (typeof status !== 'string')
        throw new SimHttpError(400, `Invalid deployment status ${JSON.stringify(status)}`);
      c.setDeploymentStatus(id, status);
      return undefined;
    },
  ],
  [/^PUT \/allocation\/([^/]+)\/start$/, (c, _body, id) => void c.startPendingAllocation(id)],
  [/^PUT \/allocation\/([^/]+)\/gc$/, (c, _body, id) => void c.garbageCollect(id)],
  [/^PUT \/checks$/, (c, body) => void setCheckFromBody(c, body())],
  [/^PUT \/crash$/, (c, body) => void crashFromBody(c, body())],
  [/^POST \/faults$/, (c, body) => void c.injectFault(body() as Fault)],
  [/^DELETE \/faults$/, (c) => void c.clearFaults()],
  [/^GET \/counters$/, (c) => ({ status: 200, body: c.counters() })],
  [/^GET \/rates$/, (c) => ({ status: 200, body: c.requestRates() })],
  [/^DELETE \/counters$/, (c) => void c.resetCounters()],
  [/^GET \/requests$/, (c) => ({ status: 200, body: c.requestLog() })],
  [/^POST \/reset$/, (c) => void c.reset()],
  [
    /^GET \/state$/,
    (c) => {
      const s = c.state();
      const body = {
        Index: s.index,
        Jobs: s.jobs(),
        Allocations: s.allocations(),
        Evaluations: s.evaluations(),
        Deployments: s.deployments(),
        Nodes: s.nodes(),
      };
      return { status: 200, body };
    },
  ],
];

/** Serves the control API over HTTP (JSON in and out; see sim/README.md). */
export function createControlHandler(control: SimControl): (req: ApiRequest) => Promise<ApiResponse> {
  return async (req) => {
    const route = `${req.method} ${req.path.replace(/^\/_sim/, '')}`;
    const body = (): unknown => (req.body.trim() === '' ? {} : parseJsonBody(req.body));
    try {
      for (const [pattern, handler] of CONTROL_ROUTES) {
        const match = pattern.exec(route);
        if (match)
          return (
            handler(control, body, decodeURIComponent(match[1] ?? '')) ?? { status: 200, body: { ok: true } }
          );
      }
      return { status: 404, body: `Unknown control route "${route}"` };
    } catch (error) {
      if (error instanceof SimControlError) return { status: 404, body: error.message };
      if (error instanceof SimScenarioError) return { status: 400, body: error.message };
      throw error;
    }
  };
}
