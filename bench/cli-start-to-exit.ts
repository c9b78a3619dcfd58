/**
 * Start to exit of the real command (the bin shim, a subprocess), as a user pays it: a job that
 * does not exist, and an in-place restart of a 6-allocation job against the simulator; median
 * wall time and peak RSS (through GNU time's `%M`), from the checkout and from the package as
 * installed (installed-package.ts). With `NOMAD_BIN` and `NOMAD_E2E_ADDR` the same
 * two runs also go to that agent, through Nomad's own `nomad job restart` and through ours, on a
 * fixture job with a unique name that is purged afterwards.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Job } from '../lib/nomad/types';
import { startSimulator } from '../sim/index';
import type { InstalledPackage } from './installed-package';
import type { ReportRow } from './report';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'nomad-restart.js');
const GNU_TIME = '/usr/bin/time';
const ALLOCATIONS = 6;

/** One run: wall ms from spawn to exit, peak RSS in MB (undefined without GNU time), exit code. */
interface Run {
  readonly ms: number;
  readonly rssMb: number | undefined;
  readonly code: number;
}

function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const measured = existsSync(GNU_TIME);
  const [file, argv] = measured ? [GNU_TIME, ['-f', '%M', command, ...args]] : [command, [...args]];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const kb = measured ? Number(stderr.trim().split('\n').at(-1)) : Number.NaN;
      resolve({ ms, rssMb: Number.isFinite(kb) ? kb / 1024 : undefined, code: code ?? -1 });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Summary {
  readonly ms: number;
  readonly rssMb: number | undefined;
  readonly codes: string;
}

async function repeat(runs: number, once: () => Promise<Run>): Promise<Summary> {
  const all: Run[] = [];
  for (let i = 0; i < runs; i++) all.push(await once());
  const rss = all.map((r) => r.rssMb).filter((v): v is number => v !== undefined);
  return {
    ms: median(all.map((r) => r.ms)),
    rssMb: rss.length === all.length ? median(rss) : undefined,
    codes: [...new Set(all.map((r) => r.code))].join('/'),
  };
}

/** Our command started by `node <shim>`: the checkout's, or an installed package's with its environment. */
const oursFrom =
  (bin: string, env: Readonly<Record<string, string>> = {}) =>
  (args: readonly string[], address: string) =>
    timed(process.execPath, [bin, ...args], { ...env, NOMAD_ADDR: address });
const ours = oursFrom(BIN);

const show = (s: Summary) =>
  `${(s.ms / 1000).toFixed(2)} s, ${s.rssMb === undefined ? 'RSS not measured' : `${s.rssMb.toFixed(0)} MB`}`;

/** The fixture job: one group of six `mock_driver` tasks that outlive every run (the simulator runs 100 times faster). */
function fixtureJob(id: string): Job {
  return {
    ID: id,
    Name: id,
    Type: 'service',
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'web',
        Count: ALLOCATIONS,
        Tasks: [{ Name: 'main', Driver: 'mock_driver', Config: { run_for: '100h' } }],
      },
    ],
  };
}

/** The same job as an agent gets it: the smallest resources, no logs, so it fits anywhere. */
function agentJob(id: string): object {
  const job = fixtureJob(id);
  return {
    ...job,
    TaskGroups: job.TaskGroups?.map((group) => ({
      ...group,
      EphemeralDisk: { SizeMB: 10 },
      Tasks: group.Tasks?.map((task) => ({
        ...task,
        Resources: { CPU: 1, MemoryMB: 10 },
        LogConfig: { Disabled: true, MaxFiles: 1, MaxFileSizeMB: 1 },
      })),
    })),
  };
}

async function nomadApi(address: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${address}${path}`, init);
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Registers the fixture on the agent and waits until all its allocations run and its deployment
 * is over (both commands refuse to restart a job whose deployment is running).
 */
async function registerOnAgent(address: string, id: string): Promise<void> {
  await nomadApi(address, '/v1/jobs', { method: 'PUT', body: JSON.stringify({ Job: agentJob(id) }) });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const allocs = (await nomadApi(address, `/v1/job/${id}/allocations`)) as { ClientStatus: string }[];
    const deployment = (await nomadApi(address, `/v1/job/${id}/deployment`)) as { Status?: string } | null;
    const running = allocs.filter((a) => a.ClientStatus === 'running').length === ALLOCATIONS;
    if (running && deployment?.Status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${id}: not running with its deployment over on ${address} after 90 s`);
}

/** Nomad's CLI and ours against the agent, on a job of this run that is purged afterwards. */
async function againstAgent(runs: number, nomadBin: string, address: string) {
  const id = `bench-${randomBytes(3).toString('hex')}`;
  const missing = `${id}-missing`;
  await registerOnAgent(address, id);
  try {
    const nomad = (args: readonly string[]) =>
      timed(nomadBin, ['job', 'restart', ...args], { NOMAD_ADDR: address });
    const version = await new Promise<string>((resolve) => {
      const child = spawn(nomadBin, ['version'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
      });
      child.on('close', () => resolve(out.split('\n')[0]?.trim() ?? 'nomad'));
      child.on('error', () => resolve('nomad'));
    });
    return {
      version,
      notFound: {
        nomad: await repeat(runs, () => nomad(['-yes', missing])),
        ours: await repeat(runs, () => ours(['-yes', missing], address)),
      },
      inPlace: {
        nomad: await repeat(runs, () => nomad(['-yes', id])),
        ours: await repeat(runs, () => ours(['-yes', id], address)),
      },
    };
  } finally {
    await nomadApi(address, `/v1/job/${id}?purge=true`, { method: 'DELETE' }).catch(() => undefined);
  }
}

/** A job that does not exist and the in-place restart, against a fresh simulator. */
async function againstSimulator(runs: number, command: typeof ours) {
  const sim = await startSimulator({
    timeScale: 0.01,
    scenario: { nodes: [{ name: 'node-0' }], jobs: [fixtureJob('web')] },
  });
  try {
    // One warm-up of each: builds the command bundle and the local synth if they are stale, and
    // V8's compiled-code cache.
    await command(['-yes', 'missing'], sim.address);
    await command(['-yes', 'web'], sim.address);
    return {
      notFound: await repeat(runs, () => command(['-yes', 'missing'], sim.address)),
      inPlace: await repeat(runs, () => command(['-yes', 'web'], sim.address)),
    };
  } finally {
    await sim.close();
  }
}

/**
 * The rows: our figures against the simulator, from the checkout and (with `installed`) from the
 * package as installed, and both CLIs on the agent when one is given.
 */
export async function measureStartToExit(runs: number, installed?: InstalledPackage): Promise<ReportRow[]> {
  const { notFound, inPlace } = await againstSimulator(runs, ours);
  const fromPackage =
    installed === undefined
      ? undefined
      : await againstSimulator(runs, oursFrom(installed.bin, installed.env));
  const nomadBin = process.env['NOMAD_BIN'];
  const address = process.env['NOMAD_E2E_ADDR'];
  const agent = nomadBin && address ? await againstAgent(runs, nomadBin, address) : undefined;
  const why = !nomadBin ? 'not run: NOMAD_BIN unset' : 'not run: NOMAD_E2E_ADDR unset';
  const cell = (pick: 'notFound' | 'inPlace') =>
    agent === undefined
      ? why
      : `${agent.version} ${show(agent[pick].nomad)} (exit ${agent[pick].nomad.codes}); ours there ${show(agent[pick].ours)} (exit ${agent[pick].ours.codes})`;
  const within = (s: Summary, seconds: number) => s.ms <= seconds * 1000 && (s.rssMb ?? Infinity) <= 100;
  const cases = [
    { name: 'job not found', pick: 'notFound', limit: 0.2 },
    { name: `${ALLOCATIONS}-allocation in-place restart`, pick: 'inPlace', limit: 0.35 },
  ] as const;
  const rows: ReportRow[] = [];
  for (const { name, pick, limit } of cases) {
    const checkout = pick === 'notFound' ? notFound : inPlace;
    const target = `≤ ${limit} s, ≤ 100 MB`;
    rows.push({
      metric: `start to exit, ${name} (median of ${runs}; exit ${checkout.codes})`,
      figure: show(checkout),
      target,
      nomadCli: cell(pick),
      verdict: within(checkout, limit) ? 'pass' : 'MISS',
    });
    const packaged = fromPackage?.[pick];
    if (packaged === undefined) continue;
    rows.push({
      metric: `start to exit from the installed package, ${name} (median of ${runs}; exit ${packaged.codes})`,
      figure: show(packaged),
      target: `${target}, and no slower than the checkout (${show(checkout)})`,
      nomadCli: cell(pick),
      // A run's noise on a shared machine is a few tens of ms: "no slower" allows 10%.
      verdict: within(packaged, limit) && packaged.ms <= checkout.ms * 1.1 ? 'pass' : 'MISS',
    });
  }
  return rows;
}
