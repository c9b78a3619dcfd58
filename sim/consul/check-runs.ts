/**
 * The simulated Consul agent running a registered service's checks: the first run after a random
 * stagger within the interval (Consul's `CheckHTTP.run`: `lib.RandomStagger(interval)`), then every
 * interval, on the simulator's clock. A run's status comes from the test's script
 * ({@link SimConsulCheckScript}) while the service is up, and is `critical` with Consul's
 * `connection refused` text while it is not.
 */
import type { ConsulCheckStatus } from '../../lib/consul/types';
import type { ServiceCheck } from '../../lib/nomad/types';
import { portOf, serving } from '../model/checks';
import type { SimContext } from '../model/context';
import type { AllocRecord } from '../model/store';
import type { CatalogCheck, CatalogService, ConsulCatalog } from './catalog';

/** A check without an interval runs every 10 s here (Nomad requires one for http and tcp checks). */
const DEFAULT_INTERVAL_MS = 10_000;

/** The check's interval in simulated ms. */
export function intervalMs(check: CatalogCheck): number {
  const ns = check.spec.Interval;
  return ns !== undefined && ns > 0 ? ns / 1e6 : DEFAULT_INTERVAL_MS;
}

/** Consul's output for a run, as its HTTP and TCP checks word it. */
export function outputOf(spec: ServiceCheck, port: number, status: ConsulCheckStatus, up: boolean): string {
  // Nomad runs a script check and passes on what it printed: the fixtures' scripts print nothing.
  if (spec.Type === 'script') return '';
  const address = `127.0.0.1:${port}`;
  const refused = `dial tcp ${address}: connect: connection refused`;
  if (spec.Type !== 'http') return up && status === 'passing' ? `TCP connect ${address}: Success` : refused;
  const url = `http://${address}${spec.Path ?? '/'}`;
  if (!up) return `Get "${url}": ${refused}`;
  const code = { passing: '200 OK', warning: '429 Too Many Requests', critical: '500 Internal Server Error' };
  return `HTTP GET ${url}: ${code[status as keyof typeof code]} Output: ${status === 'passing' ? 'ok' : 'unhealthy'}`;
}

/** What the check reports at this run: the script's status while the service is up. */
function runResult(
  ctx: SimContext,
  record: AllocRecord,
  service: CatalogService,
  check: CatalogCheck,
): { status: ConsulCheckStatus; output: string } {
  const up = serving(record, service.task);
  const port = portOf(record);
  if (!up) return { status: 'critical', output: outputOf(check.spec, port, 'critical', false) };
  const rule = ctx.behaviours.consulCheckOf(record, check.wire.Name);
  const script = rule?.value ?? { status: 'passing' };
  const countFrom = Math.max(rule?.setAt ?? 0, record.runtime.lastRestartAt ?? 0, service.registeredAt);
  if (check.countFrom !== countFrom) {
    check.countFrom = countFrom;
    check.upRuns = 0;
  }
  check.upRuns += 1;
  let status: ConsulCheckStatus;
  if (script.status === 'flapping') {
    // Runs 1, 3, 5... pass; 2, 4... fail, for `flaps` failures.
    const n = check.upRuns;
    status = n % 2 === 0 && n / 2 <= (script.flaps ?? 1) ? 'critical' : 'passing';
  } else status = script.status;
  return { status, output: script.output ?? outputOf(check.spec, port, status, true) };
}

/** Starts the runs of every check of a newly registered instance. */
export function startCheckRuns(
  ctx: SimContext,
  catalog: ConsulCatalog,
  record: AllocRecord,
  service: CatalogService,
): void {
  for (const check of service.checks) {
    const schedule = (delayMs: number): void => {
      check.cancel = ctx.timers.after(delayMs, () => {
        const { status, output } = runResult(ctx, record, service, check);
        catalog.update(check, status, output);
        schedule(intervalMs(check));
      });
    };
    // Nomad runs a script check at once; Consul staggers its own checks' first run.
    schedule(check.spec.Type === 'script' ? 0 : ctx.random() * intervalMs(check));
  }
}
