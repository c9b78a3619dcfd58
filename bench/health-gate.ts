/**
 * What the health gate (`-wait-healthy`) costs: Nomad requests per allocation (the checks endpoint
 * has no blocking query, so it is polled) and state transitions per batch, with and without the
 * gate, in place and with `-reschedule`. The simulator runs 10 simulated ms per real ms here, so
 * a Nomad check every 10 simulated s runs every real second: four polls (250 ms) per run and per
 * `-min-healthy-time` of 1 s, close to Nomad's defaults (10 s checks, 10 s min-healthy, 2 s polls).
 * In place, the same run behind a Consul check (a task service) counts Consul's reads beside
 * Nomad's: one read per service before the first batch, then per batch one plain read and the
 * blocking reads that return as Consul's checks change (lib/steps/health/consul-checks-watch.ts).
 */

import { type HealthGateRun, type LocalRunMeasure, measureLocalRun } from './local-engine';
import type { ReportRow } from './report';
import { verdict } from './report';

/** Sizes of the gate's runs. */
export interface HealthBenchSizes {
  readonly allocations: number;
  readonly batchSize: number;
}

const GATE: HealthGateRun = { minHealthyTime: '1s', healthyDeadline: '1m', checkIntervalS: 10 };
const TIME_SCALE = 0.1;

const fmt = (n: number) => n.toFixed(2);
const perAllocation = (run: LocalRunMeasure) => run.requests / run.allocations;

/** Requests of the checks endpoint per allocation in `run`. */
function checksReads(run: LocalRunMeasure): number {
  return (run.byRoute['GET /v1/client/allocation/:id/checks'] ?? 0) / run.allocations;
}

/** Consul reads per allocation in `run`. */
const consulReads = (run: LocalRunMeasure) => (run.consulCounters['total'] ?? 0) / run.allocations;
/** ... of which blocking queries (`?index=`). */
const consulBlocking = (run: LocalRunMeasure) =>
  (run.consulCounters['total:blocking'] ?? 0) / run.allocations;

/** Measures both modes with and without the gate; returns the report's rows. */
export async function measureHealthGate(sizes: HealthBenchSizes): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  const states: string[] = [];
  let mostStates = 0;
  for (const reschedule of [false, true]) {
    const mode = reschedule ? 'reschedule' : 'in-place';
    const base = {
      allocations: sizes.allocations,
      batchSize: String(sizes.batchSize),
      reschedule,
      timeScale: TIME_SCALE,
    };
    const without = await measureLocalRun(base);
    const gated = await measureLocalRun({ ...base, health: GATE });
    states.push(`${fmt(without.statesPerBatch)} / ${fmt(gated.statesPerBatch)}`);
    mostStates = Math.max(mostStates, gated.statesPerBatch);
    rows.push({
      metric: `Nomad requests per ${mode} allocation, batch ${sizes.batchSize}, without / with -wait-healthy`,
      figure: `${fmt(perAllocation(without))} / ${fmt(perAllocation(gated))} (of which checks reads ${fmt(checksReads(gated))})`,
      target: '-',
      nomadCli: '- (no health gate)',
      verdict: 'info',
    });
    if (reschedule) continue;
    // The same run behind a Consul check: Consul's reads are one per service per batch (plus
    // blocking re-reads as checks change), shared by the batch's allocations.
    const consul = await measureLocalRun({ ...base, health: { ...GATE, provider: 'consul' } });
    rows.push({
      metric: `requests per ${mode} allocation, batch ${sizes.batchSize}, -wait-healthy with a Nomad check / with a Consul check (Nomad + Consul)`,
      figure: `${fmt(perAllocation(gated))} / ${fmt(perAllocation(consul))} + ${fmt(consulReads(consul))} (of which blocking ${fmt(consulBlocking(consul))})`,
      target: '-',
      nomadCli: '- (no health gate)',
      verdict: 'info',
    });
  }
  rows.push({
    metric: 'state transitions per batch without / with -wait-healthy (in place; reschedule)',
    figure: states.join('; '),
    target: '≤ 10',
    nomadCli: '-',
    verdict: verdict(mostStates <= 10),
  });
  return rows;
}
