/**
 * Scenario: the rotation recipe's input (test/fixtures/rotation-recipe.ts), as its schedule sends
 * it every 15 minutes, through the local engine's AWS path: the fleet state machine and each job's
 * one-job run on the AWS stores (plan store on s3rver, locks on dynalite), every call a function
 * makes checked against its role in the synthesized template, against the simulator's rotation
 * scenario with ACLs on and the README's fleet policy as the token. A run before the variable
 * changes costs the Nomad requests the recipe's document states and starts no job; after the
 * change (a `nomad var put`), the next run restarts exactly the three consumers' allocations,
 * health-gated, and the one after restarts nothing again, reading no job's specification (kept
 * from the first run in the plan bucket, by JobModifyIndex).
 */
import { S3Client } from '@aws-sdk/client-s3';
import { type LocalFleetRequest, runFleetLocally } from '../../../lib/engines/local/fleet-engine';
import { type LocalDefinitions, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import type { FleetProgressEvent } from '../../../lib/fleet/events';
import { S3PlanStore } from '../../../lib/stores/s3-plan-store';
import { FLEET_HANDLER_IDS, FleetTaskStates } from '../../../lib/workflow/fleet-state-names';
import { FlowStates, TASK_STATE_HANDLERS } from '../../../lib/workflow/state-names';
import { bundledRotationScenario, ROTATION } from '../../../sim/index';
import { MANAGEMENT_TOKEN, OPERATOR_TOKEN, readmeFleetPolicyToken } from '../../fixtures/readme-policy';
import { putVariable } from '../../fixtures/rotation';
import { ROTATION_RECIPE } from '../../fixtures/rotation-recipe';
import { useEmulatedAws } from '../../iam/helpers/emulated-aws';
import { asFunction } from '../../iam/helpers/invoking-function';
import { type Harness, startHarness, waitAllRunning } from '../../steps/helpers/harness';

const aws = useEmulatedAws();
const RESTART = /^\/v1\/client\/allocation\/[^/]+\/restart$/;

/** The handler id of each Task state: the function whose role a call is checked against. */
const HANDLER_OF: Readonly<Record<string, string>> = {
  ...TASK_STATE_HANDLERS,
  [FleetTaskStates.planFleet]: FLEET_HANDLER_IDS[0],
  [FleetTaskStates.summarizeFleet]: FLEET_HANDLER_IDS[1],
};

let stateMachines: LocalDefinitions;
let h: Harness | undefined;
beforeAll(async () => {
  stateMachines = (await loadLocalDefinition()).stateMachine;
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function openRotation(): Promise<Harness> {
  const scenario = bundledRotationScenario();
  const acl = {
    enabled: true,
    tokens: [
      readmeFleetPolicyToken(['default', ...(scenario.namespaces ?? [])]),
      { secret: MANAGEMENT_TOKEN, management: true },
    ],
  };
  const harness = await startHarness({}, { scenario: { ...scenario, acl }, token: OPERATOR_TOKEN });
  for (const entry of scenario.jobs) {
    const job = 'Job' in entry ? entry.Job : entry;
    await waitAllRunning(harness, job.ID, ROTATION.allocationsPerJob, job.Namespace);
  }
  return harness;
}

/** One firing of the recipe's schedule: its input with what the schedule adds, run to its end. */
async function fire(harness: Harness, name: string) {
  const events: FleetProgressEvent[] = [];
  const s3 = new S3Client({});
  const request: LocalFleetRequest = {
    input: {
      ...ROTATION_RECIPE.input,
      trigger: 'schedule',
      scheduleName: ROTATION_RECIPE.scheduleName,
      scheduledTime: new Date(harness.now()).toISOString(),
    },
    executionName: name,
    stateMachines,
    objectStore: new S3PlanStore(s3, aws.bucket),
    nomad: { address: harness.sim.address, token: OPERATOR_TOKEN },
    emit: (event) => events.push(event),
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    interceptInvocation: (stateName, invoke) => asFunction(HANDLER_OF[stateName] ?? stateName, invoke),
    waitTimeOverrides: { [FlowStates.waitBeforeNextBatch]: 0 },
    now: harness.now,
    sleep: harness.sleep,
  };
  try {
    const result = await (await runFleetLocally(request)).result;
    return { result, events };
  } finally {
    s3.destroy();
  }
}

const requestsSince = (harness: Harness, from: number): string[] =>
  harness.sim.control
    .requestLog()
    .slice(from)
    .map((e) => `${e.method} ${e.path}`);

describe("the rotation recipe's scheduled runs on the AWS path", () => {
  it('cost twelve reads the first time nothing changed, roll the three consumers after a change, then cost six reads', async () => {
    // Arrange
    h = await openRotation();

    // Act: a firing before the change, one after it, and the next one.
    const quiet = await fire(h, 'roll-shared-db-1');
    const quietLog = requestsSince(h, 0);
    await putVariable(h, ROTATION.variable.namespace, ROTATION.variable.path);
    const fromRotation = h.sim.control.requestLog().length;
    const rolled = await fire(h, 'roll-shared-db-2');
    const rolledLog = requestsSince(h, fromRotation);
    const fromNext = h.sim.control.requestLog().length;
    const next = await fire(h, 'roll-shared-db-3');

    // Assert: before the change, reads only — the jobs listing, the namespaces, one specification
    // per candidate job, one variables listing, one allocation listing per consumer — and no job.
    expect(quiet.result.status).toBe('SUCCEEDED');
    expect(quiet.events.filter((e) => e.type === 'job-started')).toEqual([]);
    expect(quietLog.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(quietLog).toHaveLength(1 + 1 + 6 + 1 + 3);
    process.stdout.write(`rotation recipe, nothing changed: ${quietLog.length} Nomad requests\n`);

    // Assert: after the change, the three consumers' six allocations, health-gated, all fresh.
    expect(rolled.result.status).toBe('SUCCEEDED');
    expect(rolled.events.at(-1)).toMatchObject({ type: 'fleet-finished', restarted: 3, failed: 0 });
    const started = rolled.events
      .filter((e) => e.type === 'job-started')
      .map((e) => `${e.namespace}/${e.job}`);
    expect(started.sort()).toEqual(ROTATION.consumers.map((c) => `${c.namespace}/${c.job}`).sort());
    expect(
      rolledLog.filter((r) => RESTART.test(r.replace(/^PUT /, '')) && r.startsWith('PUT ')),
    ).toHaveLength(6);
    expect(rolled.events.some((e) => e.type === 'health-waiting')).toBe(true);
    expect(rolled.events.filter((e) => e.type === 'freshness')).toHaveLength(3);
    expect(aws.ledger.denied()).toEqual([]);
    process.stdout.write(`rotation recipe, after the change: ${rolledLog.length} Nomad requests\n`);

    // Assert: the next firing finds nothing stale and starts nothing; no job changed since the
    // first firing, so it reads no specification (their reads kept in the plan bucket by
    // JobModifyIndex): the jobs listing, the namespaces, one variables listing, three allocations.
    const nextLog = requestsSince(h, fromNext);
    expect(next.result.status).toBe('SUCCEEDED');
    expect(next.events.filter((e) => e.type === 'job-started')).toEqual([]);
    expect(nextLog.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(nextLog.filter((r) => /^GET \/v1\/job\/[^/]+$/.test(r))).toEqual([]);
    expect(nextLog).toHaveLength(1 + 1 + 1 + 3);
    process.stdout.write(
      `rotation recipe, nothing changed, specifications kept: ${nextLog.length} Nomad requests\n`,
    );
    for (const { namespace, job } of ROTATION.consumers)
      expect(await aws.lockHolder({ namespace, jobId: job })).toBeUndefined();
  });
});
