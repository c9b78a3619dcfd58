/**
 * The job the start-to-exit bench restarts: one group of six `mock_driver` allocations, on the
 * simulator or registered on a real agent under a unique name and purged afterwards.
 */
import { spawn } from 'node:child_process';
import type { Job } from '../lib/nomad/types';
import { runHistoryPath, sharedLockPath } from '../lib/stores/shared-lock-settings';

/** Allocations of the fixture job. */
export const ALLOCATIONS = 6;

/** The fixture job: tasks that outlive every run (the simulator runs 100 times faster). */
export function fixtureJob(id: string): Job {
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

/**
 * The token that registers and purges the fixture on an agent with ACLs on:
 * `NOMAD_BENCH_FIXTURE_TOKEN` (a management token, say), else `NOMAD_TOKEN`. Apart from the one
 * the commands run with, so that they can run with no more than the README's policy, which may
 * not register a job.
 */
function headers(): Record<string, string> {
  const token = process.env['NOMAD_BENCH_FIXTURE_TOKEN'] || process.env['NOMAD_TOKEN'];
  return token ? { 'X-Nomad-Token': token } : {};
}

async function nomadApi(address: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${address}${path}`, { ...init, headers: headers() });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Registers the fixture on the agent and waits until all its allocations run and its deployment
 * is over (both commands refuse to restart a job whose deployment is running).
 */
export async function registerOnAgent(address: string, id: string): Promise<void> {
  await nomadApi(address, '/v1/jobs', { method: 'PUT', body: JSON.stringify({ Job: agentJob(id) }) });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const allocs = (await nomadApi(address, `/v1/job/${id}/allocations`)) as { ClientStatus: string }[];
    const deployments = (await nomadApi(address, `/v1/job/${id}/deployments`)) as { Status?: string }[];
    const running = allocs.filter((a) => a.ClientStatus === 'running').length === ALLOCATIONS;
    if (running && !deployments.some((d) => d.Status === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${id}: not running with its deployment over on ${address} after 90 s`);
}

/**
 * Purges the fixture from the agent, and the variables our runs left for it (a purge keeps a
 * job's variables): its run history and its lock's (a released lock keeps its variable); a failure
 * is left to whoever tidies the agent.
 */
export async function purgeFromAgent(address: string, id: string): Promise<void> {
  await nomadApi(address, `/v1/job/${id}?purge=true`, { method: 'DELETE' }).catch(() => undefined);
  for (const path of [runHistoryPath(id), sharedLockPath(id)])
    await fetch(`${address}/v1/var/${path}`, { method: 'DELETE', headers: headers() }).catch(() => undefined);
}

/** The first line of `nomad version` (e.g. `Nomad v2.0.6-dev`), or `nomad` when it prints none. */
export function nomadVersion(nomadBin: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(nomadBin, ['version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('close', () => resolve(out.split('\n')[0]?.trim() || 'nomad'));
    child.on('error', () => resolve('nomad'));
  });
}
