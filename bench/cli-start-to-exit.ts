/**
 * Start to exit of the real command as an operator pays it, side by side with Nomad's own
 * `nomad job restart`: a job that does not exist, a validation error, and an in-place restart of
 * a 6-allocation job. The commands run paired, round by round (ABC, BCA, CAB, ...), never all of
 * one then all of the next: ours from the package as installed (installed-package.ts; the
 * checkout's shim when none is given, as in the smoke run), the single executable when
 * `npm run build:sea` has built it, and with `NOMAD_BIN` and `NOMAD_E2E_ADDR` the `nomad` CLI.
 * Each run's CPU and wall come from timed-run.ts, its requests from a counting proxy in front of
 * the agent (with `NOMAD_E2E_ADDR`, on a fixture job purged afterwards) or the simulator.
 *
 *   NOMAD_BIN=<nomad> NOMAD_E2E_ADDR=http://127.0.0.1:4646 npx tsx bench/cli-start-to-exit.ts [runs]
 *
 * On an agent with ACLs on, every command runs with `NOMAD_TOKEN` (the README's policy is
 * enough) and the fixture is registered with `NOMAD_BENCH_FIXTURE_TOKEN` (cli-fixture.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../sim/index';
import { fixtureJob, nomadVersion, purgeFromAgent, registerOnAgent } from './cli-fixture';
import { type CountProxy, startCountProxy } from './count-proxy';
import { type InstalledPackage, installPackage } from './installed-package';
import { formatTable, machine, type ReportRow } from './report';
import {
  caseRows,
  type Measured,
  type NomadResult,
  roundOrder,
  type Summary,
  summarise,
} from './start-to-exit-rows';
import { type TimedRun, timedRun } from './timed-run';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build:sea` leaves the executable for this machine. */
const SEA = join(ROOT, 'release', `nomad-restart-linux-${process.arch}`);

/** A command under test: how to run it with a restart's arguments against an address. */
interface Command {
  readonly label: string;
  run(args: readonly string[], address: string): Promise<TimedRun>;
}

const command = (
  label: string,
  file: string,
  prefix: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Command => ({
  label,
  run: (args, address) => timedRun(file, [...prefix, ...args], { ...env, NOMAD_ADDR: address }),
});

/** The cases, each given the fixture job's ID. */
const CASES = [
  { name: 'job not found', args: (id: string) => ['-yes', `${id}-missing`] },
  { name: 'validation error (-batch-size=0)', args: (id: string) => ['-batch-size=0', id] },
  { name: '6 allocations in place (-batch-size 2)', args: (id: string) => ['-batch-size', '2', '-yes', id] },
] as const;

/** Runs `args` with each command `runs` times, paired round by round, after one warm-up each. */
async function measureCase(
  commands: readonly Command[],
  args: readonly string[],
  proxy: CountProxy,
  runs: number,
): Promise<Map<Command, Summary>> {
  // The warm-up: a checkout's first run may build its bundle; every binary's pages get cached.
  for (const each of commands) await each.run(args, proxy.address);
  proxy.take();
  const measured = new Map<Command, Measured[]>(commands.map((each) => [each, []]));
  for (let round = 0; round < runs; round++) {
    for (const each of roundOrder(commands, round)) {
      const run = await each.run(args, proxy.address);
      measured.get(each)?.push({ run, requests: proxy.take() });
    }
  }
  return new Map([...measured].map(([each, all]) => [each, summarise(all)]));
}

/** The agent's fixture job, or the simulator's, behind a counting proxy; closed by `close`. */
async function target(agent: string | undefined) {
  const id = `bench-${randomBytes(3).toString('hex')}`;
  if (agent !== undefined) {
    await registerOnAgent(agent, id);
    const proxy = await startCountProxy(agent);
    const close = async () => {
      await proxy.close();
      await purgeFromAgent(agent, id);
    };
    return { id, proxy, where: `the agent at ${agent}`, close };
  }
  const sim = await startSimulator({
    timeScale: 0.01,
    scenario: { nodes: [{ name: 'node-0' }], jobs: [fixtureJob(id)] },
  });
  const proxy = await startCountProxy(sim.address);
  const close = async () => {
    await proxy.close();
    await sim.close();
  };
  return { id, proxy, where: 'the simulator', close };
}

const oneMinuteLoad = () => (loadavg()[0] ?? Number.NaN).toFixed(1);

/**
 * The rows: per case, one per command of ours with its medians and its ratios to the `nomad`
 * CLI's; a row saying why the single executable was not run when it was not; the load average.
 */
export async function measureStartToExit(
  runs: number,
  installed?: InstalledPackage,
  sea: string = SEA,
): Promise<ReportRow[]> {
  const node = `Node ${process.version}`;
  const ours = [
    installed === undefined
      ? command(`checkout, ${node}`, process.execPath, [join(ROOT, 'bin', 'nomad-restart.js')])
      : command(`installed package, ${node}`, process.execPath, [installed.bin], installed.env),
  ];
  const rows: ReportRow[] = [];
  if (existsSync(sea)) ours.push(command(`single executable (${basename(sea)})`, sea, []));
  else
    rows.push({
      metric: 'start to exit, single executable',
      figure: `not run: ${relative(ROOT, sea)} is absent (npm run build:sea builds it)`,
      target: '-',
      nomadCli: '-',
      verdict: 'info',
    });
  const nomadBin = process.env['NOMAD_BIN'];
  const agent = process.env['NOMAD_E2E_ADDR'];
  const nomad = nomadBin && agent ? command('nomad', nomadBin, ['job', 'restart']) : undefined;
  const version = nomadBin && agent ? await nomadVersion(nomadBin) : '';
  const notRun = !nomadBin ? 'not run: NOMAD_BIN unset' : 'not run: NOMAD_E2E_ADDR unset';

  // The 1-minute load when each case starts, and at the end: a figure means little without it.
  const loads = [oneMinuteLoad()];
  const fixture = await target(nomad === undefined ? undefined : agent);
  try {
    for (const { name, args } of CASES) {
      const commands = nomad === undefined ? ours : [...ours, nomad];
      const summaries = await measureCase(commands, args(fixture.id), fixture.proxy, runs);
      const nomadSummary = nomad === undefined ? undefined : summaries.get(nomad);
      const result: NomadResult =
        nomadSummary === undefined ? { notRun } : { version, summary: nomadSummary };
      const measured = ours.flatMap((each) => {
        const summary = summaries.get(each);
        return summary === undefined ? [] : [{ label: each.label, summary }];
      });
      rows.push(...caseRows(`${name} against ${fixture.where}`, measured, result));
      loads.push(oneMinuteLoad());
    }
  } finally {
    await fixture.close();
  }
  rows.push({
    metric: 'load average (1 min) before the start-to-exit cases and after each',
    figure: loads.join(' → '),
    target: '-',
    nomadCli: '-',
    verdict: 'info',
  });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 15);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`runs "${process.argv[2]}" is not a whole number of runs of at least 1`);
  const installed = await installPackage();
  try {
    const rows = await measureStartToExit(runs, installed);
    console.log(`nomad-restart start to exit, ${machine()}, ${new Date().toISOString()}`);
    console.log(formatTable(rows));
  } finally {
    await installed.close();
  }
}
