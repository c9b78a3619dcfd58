/**
 * Scenario: the real `nomad-restart` command (a subprocess) against the simulator with ACLs on and
 * a token holding exactly the README's run policy, and the job's restart history read back with
 * the README's reader policy (issue #40). A run killed with SIGKILL after its first batch, while it
 * waits before the second, leaves its provisional record: `running`, no end, which readers show as
 * `started, never finished` once its lock is gone. A `-reason` too long or of two lines is refused
 * with the flag's error before anything is touched: no allocation restarted, no variable written.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunRecord } from '../../lib/history/record';
import { NomadClient } from '../../lib/nomad';
import { NomadRunHistory } from '../../lib/stores/nomad-run-history';
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { HISTORY_READER_TOKEN, OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { collectText } from '../fixtures/stream-text';
import { eventually } from '../sim/helpers/http';
import { simpleJob } from '../steps/helpers/harness';
import { runCli } from './helpers/run-cli';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'nomad-restart.js');
const RESTART = 'PUT /v1/client/allocation/:id/restart';
const HELP_LINE = "For additional help try 'nomad-restart -help'";

let sim: RunningSimulator | undefined;
let client: NomadClient | undefined;
afterEach(async () => {
  await client?.close();
  await sim?.close();
  client = undefined;
  sim = undefined;
});

/** Two running allocations of `web`, in real time, ACLs on with the README's policies. */
async function cluster(): Promise<RunningSimulator> {
  sim = await startSimulator({
    scenario: { nodes: [{ name: 'n1' }], jobs: [simpleJob('web', 'service', 2)], acl: readmePolicyAcl() },
  });
  await sim.control.waitFor(
    (s) => s.allocations({ jobId: 'web' }).filter((a) => a.ClientStatus === 'running').length === 2,
    10_000,
  );
  return sim;
}

/** `web`'s records, read with the README's reader policy. */
async function historyOf(address: string): Promise<readonly RunRecord[]> {
  client ??= NomadClient.create({ address, token: HISTORY_READER_TOKEN });
  return (await new NomadRunHistory(client).read({ namespace: 'default', jobId: 'web' })).records;
}

describe('nomad-restart and the job restart history', () => {
  it('leaves a run killed with SIGKILL as running, with no end', async () => {
    // Arrange: one allocation per batch, 30 s between the batches.
    const s = await cluster();
    const child = spawn(
      process.execPath,
      [BIN, '-batch-size', '1', '-batch-wait', '30s', '-yes', '-reason', 'INC-77', 'web'],
      {
        env: {
          PATH: process.env['PATH'],
          HOME: process.env['HOME'],
          NOMAD_ADDR: s.address,
          NOMAD_TOKEN: OPERATOR_TOKEN,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const stdout = collectText(child.stdout);
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await eventually(
      async () => (stdout().includes('Waiting 30s before restarting the next batch') ? true : undefined),
      60_000,
    );

    // Act
    child.kill('SIGKILL');
    const signal = await closed;

    // Assert
    expect(signal).toBe('SIGKILL');
    expect(s.control.counters()[RESTART]).toBe(1);
    const records = await historyOf(s.address);
    expect(records).toEqual([
      expect.objectContaining({ outcome: 'running', engine: 'terminal', reason: 'INC-77', jobId: 'web' }),
    ]);
    expect(records[0]).not.toHaveProperty('endedAt');
  });

  it.each([
    {
      name: 'longer than 200 characters',
      reason: 'x'.repeat(201),
      expectedErr: `Invalid -reason value "${'x'.repeat(201)}": must be at most 200 characters, got 201`,
    },
    {
      name: 'two lines',
      reason: 'INC-1\nand more',
      expectedErr:
        'Invalid -reason value "INC-1\\nand more": must be one line, without control characters (found "\\n")',
    },
  ])('refuses a -reason $name before anything is touched', async ({ reason, expectedErr }) => {
    // Arrange
    const s = await cluster();

    // Act
    const result = await runCli(['-yes', '-reason', reason, 'web'], {
      NOMAD_ADDR: s.address,
      NOMAD_TOKEN: OPERATOR_TOKEN,
    });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${expectedErr}\n${HELP_LINE}\n`);
    expect(result.stdout).toBe('');
    expect(s.control.counters()[RESTART]).toBeUndefined();
    expect(s.control.counters()['PUT /v1/var/:path']).toBeUndefined();
    expect(await historyOf(s.address)).toEqual([]);
  });
});
