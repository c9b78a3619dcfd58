/**
 * Scenario: issue #40's first must-show, on one simulator with ACLs on and one job `web` (3
 * allocations) beside `api`, which the fleet restarts with it. Four runs of `web`, each through
 * the path an operator would use: a terminal run that succeeds and one stopped by a second
 * `nomad-restart stop web` after its first batch (the real command in subprocesses, holding the
 * README's run policy), a scheduled execution through the local engine's AWS path (in this
 * process, as a schedule's input), and a fleet over the namespace (the real `nomad-restart fleet`,
 * holding the README's fleet policy). Then the real `nomad-restart history`, holding only the
 * README's reader policy and no AWS setting, lists the four newest first with who started each,
 * why, how it ended and its counts; `-output json` agrees; the namespace's list has the fleet's
 * own record too. The table's columns are split on Nomad's column gap (two spaces or more) rather
 * than compared whole, so a change of layout elsewhere does not hide what this file checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shortRunId } from '../../lib/cli/history/history-view';
import { operatorName } from '../../lib/cli/terminal/operator';
import type { RunRecord } from '../../lib/history/record';
import { runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import {
  HISTORY_READER_TOKEN,
  MANAGEMENT_TOKEN,
  OPERATOR_TOKEN,
  readmeFleetPolicyToken,
  readmeHistoryReaderToken,
  readmePolicyToken,
} from '../fixtures/readme-policy';
import { eventually } from '../sim/helpers/http';
import { type Harness, simpleJob, startHarness, waitAllRunning } from '../steps/helpers/harness';
import { type CliResult, runCli } from './helpers/run-cli';

/** The fleet's operator: the README's fleet policy, a token of its own beside the run policy's. */
const FLEET_TOKEN = 'fleet-operator-secret';
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;
const REASONS = {
  terminal: 'CHG-1001 rotate certs',
  stopped: 'CHG-1002 rotate certs, one by one',
  scheduled: 'CHG-1003 weekly rotation',
  fleet: 'CHG-1004 front end rollout',
};

let h: Harness;
let emptyHome: string;
/** What each run's command said, kept to explain a failure of the arrangement. */
const said: Record<string, CliResult> = {};

const restarts = () =>
  h.sim.control.requestLog().filter((r) => r.method === 'PUT' && RESTART.test(r.path)).length;
const runner = () => ({ NOMAD_ADDR: h.sim.address, NOMAD_TOKEN: OPERATOR_TOKEN });
/**
 * The reader's environment: Nomad's address and the reader token, nothing of AWS (runCli passes
 * no other variable), and an empty home so no `~/.aws` of the machine running the tests helps.
 */
const reader = () => ({ NOMAD_ADDR: h.sim.address, NOMAD_TOKEN: HISTORY_READER_TOKEN, HOME: emptyHome });

beforeAll(async () => {
  // Arrange: one cluster; each run ends before the next starts, so their start times order them.
  emptyHome = mkdtempSync(join(tmpdir(), 'history-reader-home-'));
  h = await startHarness({
    nodes: [{ name: 'node1' }],
    jobs: [simpleJob('web', 'service', 3), simpleJob('api', 'service', 2)],
    acl: {
      enabled: true,
      tokens: [
        readmePolicyToken(),
        { ...readmeFleetPolicyToken(['default']), secret: FLEET_TOKEN },
        readmeHistoryReaderToken(),
        { secret: MANAGEMENT_TOKEN, management: true },
      ],
    },
  });
  await waitAllRunning(h, 'web', 3);
  await waitAllRunning(h, 'api', 2);

  said['terminal'] = await runCli(['-yes', '-reason', REASONS.terminal, 'web'], runner());

  // The second run waits 5 s after its first batch: `stop` lands in that wait.
  const before = restarts();
  const stoppedRun = runCli(
    ['-batch-size', '1', '-batch-wait', '5s', '-yes', '-reason', REASONS.stopped, 'web'],
    runner(),
  );
  await eventually(async () => (restarts() > before ? true : undefined), 30_000);
  said['stop'] = await runCli(['stop', 'web'], runner());
  said['stopped'] = await stoppedRun;

  const scheduled = await runWorkflowInput(
    h,
    {
      job: 'web',
      yes: true,
      reason: REASONS.scheduled,
      trigger: 'schedule',
      scheduleName: 'nightly-web',
      scheduledTime: new Date().toISOString(),
    },
    { token: OPERATOR_TOKEN, engine: 'aws' },
  );
  expect(scheduled.result.status).toBe('SUCCEEDED');

  said['fleet'] = await runCli(['fleet', '-yes', '-namespace', 'default', '-reason', REASONS.fleet], {
    NOMAD_ADDR: h.sim.address,
    NOMAD_TOKEN: FLEET_TOKEN,
  });
  for (const name of ['terminal', 'stop', 'stopped', 'fleet'])
    expect({ name, ...said[name] }).toMatchObject({ name, code: 0, stderr: '' });
}, 80_000);

afterAll(async () => {
  rmSync(emptyHome, { recursive: true, force: true });
  await h?.close();
});

/** The table's rows as cells by column name, split on Nomad's column gap. */
function tableRows(stdout: string): Record<string, string>[] {
  const [header = '', ...rows] = stdout.split('\n').filter((line) => line !== '');
  const columns = header.split(/ {2,}/);
  return rows.map((row) => {
    const cells = row.split(/ {2,}/);
    expect({ row, cells: cells.length }).toEqual({ row, cells: columns.length });
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
  });
}

/** The columns this file checks of a row: who, why, how it ended, its counts. */
const whoWhyOutcomeCounts = (row: Record<string, string>) => ({
  who: row['Who'],
  why: row['Why'],
  outcome: row['Outcome'],
  counts: row['Restarted/Failed/Planned'],
});

describe('the restart history of one job after four runs (#40, must show)', () => {
  it('lists the four runs of web newest first, read with the README reader policy only', async () => {
    // Act
    const result = await runCli(['history', 'web'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = tableRows(result.stdout);
    const fleetRow = rows[0]?.['Who'] ?? '';
    expect(fleetRow).toMatch(/^fleet run "[0-9a-f]{8}" \(job [12] of 2\)$/);
    expect(rows.map(whoWhyOutcomeCounts)).toEqual([
      { who: fleetRow, why: REASONS.fleet, outcome: 'succeeded', counts: '3/0/3' },
      { who: 'schedule "nightly-web"', why: REASONS.scheduled, outcome: 'succeeded', counts: '3/0/3' },
      {
        who: operatorName(),
        why: REASONS.stopped,
        outcome: `canceled by ${operatorName()} (terminal)`,
        counts: '1/0/3',
      },
      { who: operatorName(), why: REASONS.terminal, outcome: 'succeeded', counts: '3/0/3' },
    ]);
  }, 30_000);

  it('gives the same four runs with -output json, each ended, with its engine', async () => {
    // Act
    const result = await runCli(['history', '-output', 'json', 'web'], reader());

    // Assert
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as (RunRecord & { state: string })[];
    expect(
      records.map((r) => ({
        engine: r.engine,
        startedBy: r.startedBy,
        reason: r.reason,
        outcome: r.outcome,
        stoppedBy: r.stoppedBy,
        counts: r.counts,
        state: r.state,
      })),
    ).toEqual([
      {
        engine: 'terminal',
        startedBy: expect.stringMatching(/^fleet run "[^"]+" \(job [12] of 2\)$/),
        reason: REASONS.fleet,
        outcome: 'succeeded',
        stoppedBy: undefined,
        counts: { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 },
        state: 'ended',
      },
      {
        engine: 'aws',
        startedBy: 'schedule "nightly-web"',
        reason: REASONS.scheduled,
        outcome: 'succeeded',
        stoppedBy: undefined,
        counts: { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 },
        state: 'ended',
      },
      {
        engine: 'terminal',
        startedBy: operatorName(),
        reason: REASONS.stopped,
        outcome: 'canceled',
        stoppedBy: `${operatorName()} (terminal)`,
        counts: { planned: 3, restarted: 1, failed: 0, skipped: 0, notReached: 2 },
        state: 'ended',
      },
      {
        engine: 'terminal',
        startedBy: operatorName(),
        reason: REASONS.terminal,
        outcome: 'succeeded',
        stoppedBy: undefined,
        counts: { planned: 3, restarted: 3, failed: 0, skipped: 0, notReached: 0 },
        state: 'ended',
      },
    ]);
    const [fleetJob] = records;
    expect(fleetJob?.startedBy).toContain(fleetJob?.fleetRunId ?? 'a fleet run ID');
  }, 30_000);

  it('lists the fleet’s own record among the namespace’s runs, linked to web’s', async () => {
    // Act
    const result = await runCli(['history'], reader());
    const json = await runCli(['history', '-output', 'json', 'web'], reader());

    // Assert
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = tableRows(result.stdout);
    const fleet = rows.filter((row) => row['Job']?.startsWith('fleet'));
    expect(fleet.map((row) => ({ job: row['Job'], ...whoWhyOutcomeCounts(row) }))).toEqual([
      {
        job: 'fleet (2 succeeded)',
        who: operatorName(),
        why: REASONS.fleet,
        outcome: 'succeeded',
        counts: '2/0/2',
      },
    ]);
    const [webFleetJob] = JSON.parse(json.stdout) as RunRecord[];
    const fleetId = fleet[0]?.['ID'];
    expect(fleetId).toBe(shortRunId(webFleetJob?.fleetRunId ?? 'no fleet run'));
    expect(
      rows
        .filter((row) => row['Job'] === 'web' || row['Job'] === 'api')
        .map((row) => [row['Job'], row['Who']]),
    ).toEqual([
      ['web', `fleet run "${fleetId}" (job 2 of 2)`],
      ['api', `fleet run "${fleetId}" (job 1 of 2)`],
      ['web', 'schedule "nightly-web"'],
      ['web', operatorName()],
      ['web', operatorName()],
    ]);
  }, 30_000);
});
