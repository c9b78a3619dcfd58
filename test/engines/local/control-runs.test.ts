/**
 * Run control through the local engine (docs/run-control.md): the synthesized workflow and the real
 * handlers against the simulator with ACLs on and a token holding exactly the README's policy.
 * Three allocations, one per batch, a second apart on the steps' clock (a run reads its requests
 * at most once a second); each request is recorded just before the second batch's safe point. Paused from another terminal (the job's request variable in Nomad): the `paused` line and
 * the attributed question, no restart while it waits, then the rest once resumed; while it waits
 * the request variable shows it parked, and its next safe point deletes that marker. Stopped from this
 * process, and from another terminal while paused: `canceled`, who stopped it in the summary, both
 * locks released. A pause nobody answers times out as "no". A request for another run of the job is
 * never acted on.
 */
import type { ControlRequest } from '../../../lib/control/requests';
import type { LocalRestart } from '../../../lib/engines/local/engine';
import { type LocalStateMachine, loadLocalDefinition } from '../../../lib/engines/local/local-definition';
import { NomadClient } from '../../../lib/nomad';
import type { ProgressEvent } from '../../../lib/restart/events';
import type { RunSummary } from '../../../lib/restart/run-summary';
import { controlRequestPath, NomadControlRequests, sharedLockPath } from '../../../lib/stores';
import { localStores } from '../../../lib/stores/from-env';
import { ASK_STATE_NAME } from '../../../lib/workflow/state-names';
import type { RunningSimulator } from '../../../sim/index';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../../fixtures/readme-policy';
import { restartOptions } from '../../fixtures/restart-options';
import { type Harness, harnessPerTest, simpleJob } from '../../steps/helpers/harness';
import { batchClock, SECOND_BATCHES_MS } from './helpers/batch-clock';
import { runWorkflow, type WorkflowRun, type WorkflowRunOptions } from './helpers/workflow-harness';

const RESTART = 'PUT /v1/client/allocation/:id/restart';
const KEY = { namespace: 'default', jobId: 'web' };
const BOB = { requestedBy: 'bob@laptop-2', via: 'terminal' } as const;
/** The question's continuation lines start under the text (Nomad's 31-character timestamp prefix). */
const INDENT = ' '.repeat(31);

let client: NomadClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});
const harness = harnessPerTest();

/** Three running allocations of `web`, ACLs on with the README's policy. */
function cluster(): Promise<Harness> {
  return harness.startRunning(
    simpleJob('web', 'service', 3),
    { token: OPERATOR_TOKEN },
    { acl: readmePolicyAcl() },
  );
}

/** Another terminal: `nomad-restart pause|resume|stop web` elsewhere, with the README's token. */
function otherTerminal(sim: RunningSimulator): NomadControlRequests {
  client ??= NomadClient.create({ address: sim.address, token: OPERATOR_TOKEN });
  return new NomadControlRequests(client);
}

/** The run holding `web`, as another terminal finds it: the lock variable's items. */
function holderOf(sim: RunningSimulator): string {
  const runId = sim.control.state().variable('default', sharedLockPath('web'))?.items['runId'];
  if (runId === undefined) throw new Error('nobody holds web');
  return runId;
}

const request = (verb: ControlRequest['verb'], by: Pick<ControlRequest, 'requestedBy' | 'via'> = BOB) => ({
  verb,
  ...by,
  at: Date.now(),
});

/** Runs the restart; `beforeSecondBatch` runs just before the second batch's safe point. */
function run(
  h: Harness,
  beforeSecondBatch: (handle: LocalRestart) => Promise<unknown>,
  options: WorkflowRunOptions = {},
): Promise<WorkflowRun> {
  let handle: LocalRestart | undefined;
  let guards = 0;
  return runWorkflow(h, restartOptions('web'), {
    token: OPERATOR_TOKEN,
    controlPollMs: 50,
    onStarted: (started) => {
      handle = started;
    },
    ...batchClock(SECOND_BATCHES_MS, async (state, invoke) => {
      if (state === 'Check deployments' && ++guards === 2 && handle !== undefined)
        await beforeSecondBatch(handle);
      return invoke();
    }),
    ...options,
  });
}

/** Resolves on the first event of `type` (passed to the run as its `onEvent`). */
function eventWaiter(type: ProgressEvent['type']) {
  let seen: () => void = () => {};
  const happened = new Promise<void>((resolve) => {
    seen = resolve;
  });
  return { onEvent: (event: ProgressEvent) => event.type === type && seen(), happened };
}

/**
 * The app's state machine with its question waiting `seconds` (the construct refuses an
 * `approvalTimeout` under a minute; the engine times the state out as Step Functions would).
 */
function withQuestionTimeout(machine: LocalStateMachine, seconds: number): LocalStateMachine {
  const definition = structuredClone(machine.definition) as {
    States: Record<string, Record<string, unknown>>;
  };
  const ask = definition.States[ASK_STATE_NAME];
  if (ask === undefined) throw new Error(`no "${ASK_STATE_NAME}" state`);
  ask['TimeoutSeconds'] = seconds;
  return { ...machine, definition };
}

const summaryOf = (r: WorkflowRun) => r.result.output as RunSummary;
const typesOf = (r: WorkflowRun) =>
  r.events
    .map((e) => e.type)
    .filter((t) => ['allocation-restarting', 'paused', 'resumed', 'stopped', 'canceled'].includes(t));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('run control through the local engine, with the README’s policy', () => {
  it('pauses before the next batch at another terminal’s request, restarts nothing until resumed, then the rest', async () => {
    // Arrange
    const h = await cluster();
    const requests = otherTerminal(h.sim);
    const paused = eventWaiter('paused');
    let whilePaused: number[] = [];

    // Act
    const running = run(h, () => requests.write(KEY, holderOf(h.sim), request('pause')), {
      onEvent: paused.onEvent,
    });
    await paused.happened;
    const runId = holderOf(h.sim);
    for (let poll = 0; poll < 10; poll += 1) {
      whilePaused.push(h.sim.control.counters()[RESTART] ?? 0);
      await sleep(100);
    }
    whilePaused = [...new Set(whilePaused)];
    await requests.write(KEY, runId, request('resume'));
    const done = await running;

    // Assert
    expect(whilePaused).toEqual([1]);
    expect(done.prompts).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Paused by bob@laptop-2 \\(terminal\\) at \\S+\\.\\n${INDENT}Resume the restart\\? \\[y/N\\]$`,
        ),
      ),
    ]);
    expect(typesOf(done)).toEqual([
      'allocation-restarting',
      'paused',
      'resumed',
      'allocation-restarting',
      'allocation-restarting',
    ]);
    expect(done.events).toContainEqual(
      expect.objectContaining({ type: 'resumed', resumedBy: 'bob@laptop-2 (terminal)' }),
    );
    expect(done.exitCode).toBe(0);
    expect(summaryOf(done).outcome).toBe('succeeded');
    expect(h.sim.control.counters()[RESTART]).toBe(3);
    expect(h.sim.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
  });

  it('shows another terminal its parked pause, and its next safe point deletes the marker however resumed', async () => {
    // Arrange
    const h = await cluster();
    const requests = otherTerminal(h.sim);
    const paused = eventWaiter('paused');

    // Act: paused from another terminal, resumed from this process's own menu (not through Nomad).
    let own: LocalRestart | undefined;
    const running = run(
      h,
      (handle) => {
        own = handle;
        return requests.write(KEY, holderOf(h.sim), request('pause'));
      },
      { onEvent: paused.onEvent },
    );
    await paused.happened;
    const runId = holderOf(h.sim);
    const whileParked = await requests.pauseState(KEY, runId);
    const markerItems = h.sim.control.state().variable('default', controlRequestPath('web'))?.items;
    await own?.requestControl(request('resume', { requestedBy: 'alice@laptop', via: 'terminal' }));
    const done = await running;

    // Assert
    expect(whileParked).toBe('parked');
    expect(markerItems).toMatchObject({ runId, verb: 'paused', requestedBy: 'bob@laptop-2' });
    expect(typesOf(done)).toEqual([
      'allocation-restarting',
      'paused',
      'resumed',
      'allocation-restarting',
      'allocation-restarting',
    ]);
    expect(h.sim.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
  });

  it('stops at this process’s request as a "no" does: canceled, who stopped it, both locks released', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const done = await run(h, (handle) =>
      handle.requestControl(request('stop', { requestedBy: 'alice@laptop', via: 'terminal' })),
    );

    // Assert
    expect(typesOf(done)).toEqual(['allocation-restarting', 'stopped', 'canceled']);
    expect(summaryOf(done)).toMatchObject({ outcome: 'canceled', stoppedBy: 'alice@laptop (terminal)' });
    expect(summaryOf(done).lines[0]).toBe(
      'Restart of job "web" in namespace "default": canceled, stopped by alice@laptop (terminal)',
    );
    expect(done.exitCode).toBe(0);
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(localStores.lock.holder(KEY)).toBeUndefined();
    expect(h.sim.control.state().variable('default', sharedLockPath('web'))?.lock).toBeUndefined();
  });

  it('ends canceled when another terminal stops it while paused, naming who stopped it', async () => {
    // Arrange
    const h = await cluster();
    const requests = otherTerminal(h.sim);
    const paused = eventWaiter('paused');

    // Act
    const running = run(h, (handle) => handle.requestControl(request('pause')), { onEvent: paused.onEvent });
    await paused.happened;
    await requests.write(
      KEY,
      holderOf(h.sim),
      request('stop', { requestedBy: 'carol@desk', via: 'terminal' }),
    );
    const done = await running;

    // Assert
    expect(typesOf(done)).toEqual(['allocation-restarting', 'paused', 'canceled']);
    expect(summaryOf(done)).toMatchObject({ outcome: 'canceled', stoppedBy: 'carol@desk (terminal)' });
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(localStores.lock.holder(KEY)).toBeUndefined();
    expect(h.sim.control.state().variable('default', controlRequestPath('web'))).toBeUndefined();
  });

  it('ends canceled when nobody answers the pause question in time (the default, no)', async () => {
    // Arrange
    const h = await cluster();
    const stateMachine = withQuestionTimeout((await loadLocalDefinition()).stateMachine, 2);

    // Act
    const done = await run(h, (handle) => handle.requestControl(request('pause')), { stateMachine });

    // Assert
    expect(typesOf(done)).toEqual(['allocation-restarting', 'paused', 'canceled']);
    expect(summaryOf(done).outcome).toBe('canceled');
    expect(summaryOf(done).stoppedBy).toBeUndefined();
    expect(h.sim.control.counters()[RESTART]).toBe(1);
    expect(localStores.lock.holder(KEY)).toBeUndefined();
  });

  it('never acts on a request for another run of the job', async () => {
    // Arrange
    const h = await cluster();
    const requests = otherTerminal(h.sim);

    // Act
    const done = await run(h, () => requests.write(KEY, 'run-of-yesterday', request('stop')));

    // Assert
    expect(typesOf(done)).toEqual([
      'allocation-restarting',
      'allocation-restarting',
      'allocation-restarting',
    ]);
    expect(summaryOf(done).outcome).toBe('succeeded');
    expect(h.sim.control.counters()[RESTART]).toBe(3);
    expect(h.sim.control.state().variable('default', controlRequestPath('web'))?.items['runId']).toBe(
      'run-of-yesterday',
    );
  });

  it('forgets a resume when nothing is paused, and goes on', async () => {
    // Arrange
    const h = await cluster();

    // Act
    const done = await run(h, (handle) => handle.requestControl(request('resume')));

    // Assert
    expect(typesOf(done)).toEqual([
      'allocation-restarting',
      'allocation-restarting',
      'allocation-restarting',
    ]);
    expect(summaryOf(done).outcome).toBe('succeeded');
  });
});
