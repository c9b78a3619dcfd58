/**
 * A fleet's request read by a job the fleet started, at the job's own safe point (the AWS path:
 * one request in the lock table for the whole fleet, lib/stores/fleet-control-key.ts), through the
 * local engine, which runs the same guard, against the simulator with ACLs on and the README's
 * policy. Three allocations, one per batch, a second apart on the steps' clock (a run reads its
 * requests at most once a second); the fleet's request is recorded just before the second batch's
 * safe point. A paused fleet holds the job: answering the job's own question yes
 * while the fleet is still paused pauses it again at the same safe point; once the fleet resumes,
 * the job goes on. A fleet's stop ends the job there, attributed.
 */
import type { ControlRequest } from '../../../lib/control/requests';
import type { LocalRestart } from '../../../lib/engines/local/engine';
import type { ProgressEvent } from '../../../lib/restart/events';
import type { RunSummary } from '../../../lib/restart/run-summary';
import { fleetControlKey } from '../../../lib/stores/fleet-control-key';
import { localStores } from '../../../lib/stores/from-env';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob, waitAllRunning } from '../../steps/helpers/harness';
import { batchClock, SECOND_BATCHES_MS } from './helpers/batch-clock';
import { runWorkflow, type WorkflowRun } from './helpers/workflow-harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const FLEET = { runId: 'fleet-9', index: 1, of: 4 };
const FLEET_KEY = fleetControlKey(FLEET.runId);

const request = (verb: ControlRequest['verb'], requestedBy: string): ControlRequest => ({
  verb,
  requestedBy,
  via: 'slack',
  at: Date.now(),
});

/** Records `request` for the whole fleet, as a requester does on AWS (the fleet run holds the item). */
const requestForFleet = (control: ControlRequest) =>
  localStores.lock.requestControl(FLEET_KEY, FLEET.runId, control);

const harness = harnessPerTest();
beforeEach(async () => {
  await localStores.lock.acquire(FLEET_KEY, { owner: FLEET.runId, ttlSeconds: 3600 });
});
afterEach(async () => {
  await localStores.lock.release(FLEET_KEY, FLEET.runId);
});

/** Three running allocations of `web`, ACLs on with the README's policy. */
async function cluster(): Promise<Harness> {
  const h = await harness.start(
    { jobs: [simpleJob('web', 'service', 3)], acl: readmePolicyAcl() },
    { token: OPERATOR_TOKEN },
  );
  await waitAllRunning(h, 'web', 3);
  return h;
}

/** Runs `web` as the fleet's job; `beforeSecondBatch` runs just before the second batch's safe point. */
function run(
  h: Harness,
  beforeSecondBatch: () => Promise<unknown>,
  onEvent: (event: ProgressEvent, handle: LocalRestart) => void = () => {},
): Promise<WorkflowRun> {
  let handle: LocalRestart | undefined;
  let guards = 0;
  return runWorkflow(h, restartOptions('web', { fleet: FLEET }), {
    token: OPERATOR_TOKEN,
    controlPollMs: 50,
    onStarted: (started) => {
      handle = started;
    },
    onEvent: (event) => {
      if (handle !== undefined) onEvent(event, handle);
    },
    ...batchClock(SECOND_BATCHES_MS, async (state, invoke) => {
      if (state === 'Check deployments' && ++guards === 2) await beforeSecondBatch();
      return invoke();
    }),
  });
}

const typesOf = (r: WorkflowRun) =>
  r.events
    .map((e) => e.type)
    .filter((t) => ['allocation-restarting', 'paused', 'resumed', 'stopped', 'canceled'].includes(t));

describe("a fleet's request at its job's safe point", () => {
  it('holds the job while the fleet is paused, even after the job alone is resumed, and lets it go on once the fleet resumes', async () => {
    // Arrange
    const h = await cluster();
    let pauses = 0;
    const restartsWhilePaused: number[] = [];

    // Act: the job's own question answered yes while the fleet is still paused; then the fleet
    // resumes and the job's question is answered yes again (a fleet resume answers each one).
    const done = await run(
      h,
      () => requestForFleet(request('pause', 'U0AAAAAAA')),
      (event, handle) => {
        if (event.type !== 'paused') return;
        pauses += 1;
        restartsWhilePaused.push(h.sim.control.counters()[RESTART] ?? 0);
        void (async () => {
          if (pauses === 2) await requestForFleet(request('resume', 'U0BBBBBBB'));
          await handle.requestControl(request('resume', 'U0BBBBBBB'));
        })();
      },
    );

    // Assert
    expect(typesOf(done)).toEqual([
      'allocation-restarting',
      'paused',
      'resumed',
      'paused',
      'resumed',
      'allocation-restarting',
      'allocation-restarting',
    ]);
    expect(restartsWhilePaused).toEqual([1, 1]);
    expect(done.events.find((e) => e.type === 'paused')).toMatchObject({
      request: { verb: 'pause', requestedBy: 'U0AAAAAAA', via: 'slack' },
    });
    expect((done.result.output as RunSummary).outcome).toBe('succeeded');
    // The fleet's request is the fleet's: no job clears it.
    expect(await localStores.lock.controlRequest(FLEET_KEY, FLEET.runId)).toMatchObject({ verb: 'resume' });
  });

  it("stops the job at its safe point at the fleet's stop, attributed", async () => {
    // Arrange
    const h = await cluster();

    // Act
    const done = await run(h, () => requestForFleet(request('stop', 'U0CCCCCCC')));

    // Assert
    expect(typesOf(done)).toEqual(['allocation-restarting', 'stopped', 'canceled']);
    expect(done.result.output as RunSummary).toMatchObject({
      outcome: 'canceled',
      stoppedBy: 'U0CCCCCCC (Slack)',
    });
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(localStores.lock.holder({ namespace: 'default', jobId: 'web' })).toBeUndefined();
  });
});
