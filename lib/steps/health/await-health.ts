/**
 * The health wait of one batch (`-wait-healthy`): task states through one blocking query on the
 * job's allocations, Nomad service checks read at most once per poll interval per allocation (the
 * checks endpoint has no blocking query), until every allocation has been healthy for
 * `-min-healthy-time`, has failed, or has passed `-healthy-deadline`; it returns a cursor before
 * the Lambda's deadline.
 */
import type { NomadClient } from '../../nomad/client';
import { MAX_BLOCKING_HOLD_MS } from '../../nomad/query';
import { ConsulGateError } from '../../restart/errors';
import type { ConsulChecksReader } from '../../restart/health/consul-health';
import type { HealthGate } from '../../restart/options';
import type { RestartPlan } from '../../restart/plan';
import type { AwaitBatchDeps } from '../await/await-batch';
import { delay, RETURN_MARGIN_MS, STALL_BACKOFF_MS, settle } from '../kit/watch-timing';
import { ConsulChecksWatch } from './consul-checks-watch';
import type { HealthCursor } from './health-cursor';
import { HealthWatch, type Listed } from './health-watch';

/** Dependencies of {@link awaitHealth}: those of the replacements' watch (`now` runs the min-healthy and deadline clocks). */
export interface AwaitHealthDeps extends AwaitBatchDeps {
  /** Reads Consul's checks; needed when the plan names Consul services (`plan.consulServices`). */
  readonly consul?: ConsulChecksReader | undefined;
}

/** The result of one slice. */
export interface AwaitHealthResult {
  readonly done: boolean;
  readonly cursor: HealthCursor;
}

/**
 * Watches one batch's allocations until each is healthy, failed or past the deadline (see
 * health.ts for the rules). Emits `allocation-healthy`, `health-still-waiting` every 60 s per
 * allocation, and with `-verbose` `health-no-checks` and `health-reset` (a flap restarts the
 * `-min-healthy-time` count). An allocation that fails, or is not healthy by the deadline, gets
 * a recoverable error naming the task or check and its last output.
 */
export async function awaitHealth(
  client: NomadClient,
  plan: RestartPlan,
  cursor: HealthCursor,
  gate: HealthGate,
  verbose: boolean,
  deps: AwaitHealthDeps,
): Promise<AwaitHealthResult> {
  const consul = consulWatch(plan, cursor, deps);
  const watch = new HealthWatch(client, cursor, gate, verbose, { ...deps, consul });
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  deps.signal?.addEventListener('abort', onAbort, { once: true });
  const aborted = new Promise<undefined>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  if (deps.signal?.aborted) controller.abort();
  const query = {
    ...(plan.job.namespace === undefined ? {} : { namespace: plan.job.namespace }),
    signal: controller.signal,
  };
  const returnBy =
    deps.deadlineMs === undefined ? Number.POSITIVE_INFINITY : deps.deadlineMs - RETURN_MARGIN_MS;
  let listing: Promise<Listed> | undefined;
  let consulChange: Promise<typeof CONSUL_CHANGED> | undefined;
  let listIndex = 0;
  let notBefore = 0;
  try {
    while (watch.waiting() && !controller.signal.aborted) {
      if (!watch.listed) {
        // A slice starts with a plain read, so what it judges is current.
        const first = await list(client, plan, { ...query, index: 0 });
        if (controller.signal.aborted) break;
        watch.onList(first);
        continue;
      }
      await watch.look(query);
      const now = deps.now();
      if (!watch.waiting() || now >= returnBy) break;
      if (listing === undefined && now >= notBefore) {
        listIndex = watch.allocationsIndex;
        const waitMs = Math.max(1, Math.min(MAX_BLOCKING_HOLD_MS, returnBy - now));
        listing = list(client, plan, { ...query, index: listIndex, waitMs });
      }
      consulChange ??= consul
        ?.changed(controller.signal, Math.min(MAX_BLOCKING_HOLD_MS, returnBy - now))
        ?.then(() => CONSUL_CHANGED);
      const wakeAt = Math.min(watch.nextDueAt(), returnBy, listing === undefined ? notBefore : Infinity);
      const timer = new AbortController();
      const woke = await Promise.race([
        ...(listing === undefined ? [] : [listing]),
        ...(consulChange === undefined ? [] : [consulChange]),
        (deps.sleep ?? delay)(wakeAt - now, timer.signal).then(() => undefined),
        aborted,
      ]);
      timer.abort();
      if (woke === CONSUL_CHANGED) consulChange = undefined;
      else if (woke !== undefined) {
        listing = undefined;
        if (woke.ok && woke.value.index <= listIndex) notBefore = deps.now() + STALL_BACKOFF_MS;
        if (!controller.signal.aborted) watch.onList(woke);
      }
    }
  } finally {
    controller.abort();
    deps.signal?.removeEventListener('abort', onAbort);
  }
  return { done: !watch.waiting(), cursor: watch.cursor() };
}

/** What the wait's race answers when one of Consul's blocking reads came back. */
const CONSUL_CHANGED = 'consul-changed';

/** The batch's Consul reads, when its allocations declare Consul services. */
function consulWatch(plan: RestartPlan, cursor: HealthCursor, deps: AwaitHealthDeps) {
  const services = plan.consulServices ?? [];
  if (services.length === 0) return undefined;
  const reader = deps.consul ?? {
    serviceChecks: () => Promise.reject(new ConsulGateError('no Consul client is configured')),
  };
  return new ConsulChecksWatch(reader, services, cursor.consulIndexes ?? {}, deps.now);
}

function list(
  client: NomadClient,
  plan: RestartPlan,
  q: { namespace?: string; signal: AbortSignal; index: number; waitMs?: number },
): Promise<Listed> {
  return settle(client.jobs().allocations(plan.job.id, q));
}
