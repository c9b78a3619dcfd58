/**
 * Simulator benchmark (a measured report, never a pass/fail timing). Run with
 * `npx tsx bench/sim.ts`. Measures, over real HTTP on 127.0.0.1:
 *   1. registering a job whose one group has `allocs` allocations on `nodes` nodes, until the
 *      evaluation has placed them all (target < 2 s for 10,000 on 1,000);
 *   2. `GET /v1/job/:id/allocations` for that job (target < 200 ms);
 *   3. `blockingQueries` concurrent blocking queries held open: RSS growth (target < 100 MB),
 *      then the time for one write to wake them all.
 * RSS is the whole process, client sockets included, so it overstates the server's share.
 * Run with `node --expose-gc --import tsx bench/sim.ts` for steadier memory numbers (the
 * heap is collected before each reading when `gc` is exposed).
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Agent, fetch } from 'undici';
import { startSimulator } from '../sim/index';

export interface SimBenchSizes {
  nodes: number;
  allocs: number;
  blockingQueries: number;
  /** How many times the allocation list is fetched (the median is reported). */
  listRepeats: number;
}

export interface SimBenchResult {
  sizes: SimBenchSizes;
  registerMs: number;
  placeMs: number;
  listMs: number;
  listBytes: number;
  heldQueries: number;
  rssDeltaMb: number;
  heapDeltaMb: number;
  wakeMs: number;
}

export const FULL_SIZES: SimBenchSizes = {
  nodes: 1000,
  allocs: 10_000,
  blockingQueries: 1000,
  listRepeats: 5,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function memoryMb(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20 };
}

/** Runs the three measurements at the given sizes and returns the numbers. */
export async function runSimBench(sizes: SimBenchSizes = FULL_SIZES): Promise<SimBenchResult> {
  // Scheduling and start delays at 0 so the numbers are the simulator's own work.
  const sim = await startSimulator({ schedulerDelayMs: 0, allocStartMs: 0, taskKillMs: 0 });
  const dispatcher = new Agent({ connections: sizes.blockingQueries + 10, keepAliveTimeout: 60_000 });
  try {
    sim.control.seed({
      nodes: Array.from({ length: sizes.nodes }, (_, i) => ({ id: `node-${i}`, name: `node-${i}` })),
      jobs: [],
    });
    const job = {
      ID: 'big',
      Type: 'service',
      Datacenters: ['*'],
      TaskGroups: [{ Name: 'g', Count: sizes.allocs, Tasks: [{ Name: 't', Driver: 'mock_driver' }] }],
    };

    const t0 = performance.now();
    const response = await fetch(`${sim.address}/v1/jobs`, {
      method: 'PUT',
      body: JSON.stringify({ Job: job }),
      dispatcher,
    });
    const registerMs = performance.now() - t0;
    const { EvalID } = (await response.json()) as { EvalID: string };
    await sim.control.waitFor(
      (s) => s.evaluations().find((e) => e.ID === EvalID)?.Status === 'complete',
      60_000,
    );
    const placeMs = performance.now() - t0;

    const listTimes: number[] = [];
    let listBytes = 0;
    for (let i = 0; i < sizes.listRepeats; i++) {
      const started = performance.now();
      const text = await (
        await fetch(`${sim.address}/v1/job/big/allocations?all=true`, { dispatcher })
      ).text();
      listTimes.push(performance.now() - started);
      listBytes = text.length;
    }

    const index = Number(
      (await fetch(`${sim.address}/v1/job/big/evaluations`, { dispatcher })).headers.get('X-Nomad-Index'),
    );
    const before = memoryMb();
    const held = Array.from({ length: sizes.blockingQueries }, () =>
      fetch(`${sim.address}/v1/job/big/evaluations?index=${index}&wait=120s`, { dispatcher }).then((r) =>
        r.text(),
      ),
    );
    const deadline = Date.now() + 60_000;
    while (sim.control.state().heldQueries() < sizes.blockingQueries && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const heldQueries = sim.control.state().heldQueries();
    const after = memoryMb();
    const rssDeltaMb = after.rss - before.rss;
    const heapDeltaMb = after.heap - before.heap;
    const wakeStarted = performance.now();
    sim.control.registerJob({
      ...job,
      ID: 'wake',
      TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't' }] }],
    });
    await Promise.all(held);
    const wakeMs = performance.now() - wakeStarted;

    return {
      sizes,
      registerMs,
      placeMs,
      listMs: median(listTimes),
      listBytes,
      heldQueries,
      rssDeltaMb,
      heapDeltaMb,
      wakeMs,
    };
  } finally {
    await sim.close();
    await dispatcher.close();
  }
}

/** One line per number, with the machine it was measured on. */
export function formatSimBench(result: SimBenchResult): string {
  const { sizes } = result;
  return [
    `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    `register job (${sizes.allocs} allocations, ${sizes.nodes} nodes): PUT ${result.registerMs.toFixed(0)} ms, all placed ${result.placeMs.toFixed(0)} ms (target < 2000 ms)`,
    `GET /v1/job/:id/allocations: median ${result.listMs.toFixed(0)} ms of ${sizes.listRepeats}, ${(result.listBytes / 1e6).toFixed(1)} MB (target < 200 ms)`,
    `${result.heldQueries} blocking queries held: RSS +${result.rssDeltaMb.toFixed(1)} MB (target < 100 MB), heap +${result.heapDeltaMb.toFixed(1)} MB, all woken by one write in ${result.wakeMs.toFixed(0)} ms`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runSimBench()
    .then((result) => console.log(formatSimBench(result)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
