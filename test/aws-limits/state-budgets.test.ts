/**
 * Scenarios (#28 items 3 and 4): the worst cases for Step Functions' per-execution limits, through
 * the local engine with the deployable props. The real handlers and definition run; only the
 * restart steps behind the handlers are a fake (its slice counts and events are the scenario), so
 * the figures do not depend on timing. The engine fails an execution as AWS does past 25,000
 * history events or a state past 256 KiB (`lib/engines/local/private/single-run.ts`).
 *
 * - History: with `-wait-healthy`, each batch's replacements take 900 await slices and its health
 *   900 more. No per-kind counter trips (each phase stays under 1,000 slices), yet two batches
 *   write about 25,200 events. The steps carry an estimate of the events in the state and the
 *   graph continues as new once it reaches its budget: every execution stays under the limit.
 * - Bytes: a batch of 500 allocations whose every step reports 500 events carrying 520 bytes of
 *   Nomad's text (a check's output, an error body). Each state keeps the events that fit its
 *   budget; the whole lists are in the plan store.
 */
import { jest } from '@jest/globals';
import { STEP_FUNCTIONS_LIMITS } from '../../lib/engines/local/stats';
import type { ExecutionResult } from '../../lib/engines/local/types';
import type { ProgressEvent } from '../../lib/restart/events';
import { summarizeRun } from '../../lib/restart/run-summary';
import { HISTORY_EVENT_BUDGET, HISTORY_EVENT_LIMIT } from '../../lib/workflow/history-budget';
import type { BatchState, PlanRef, Progress, WorkflowState } from '../../lib/workflow/payloads';
import type { RestartSteps, RestartStepsDeps } from '../../lib/workflow/restart-steps';
import type { EventsElsewhere } from '../../lib/workflow/state-bytes';
import { plannedState } from '../lambdas/helpers/fixtures';
import { runFacts } from '../restart/helpers/run-facts';
import { cachedStack } from './helpers/cached-stack';

/** The scenario the fake engine plays: batches, slices of each wait, and events per step. */
interface Scenario {
  readonly batches: number;
  readonly batchSize: number;
  readonly awaitSlices: number;
  readonly healthSlices: number;
  /** Events each batch step reports, and the bytes of Nomad's text in each. */
  readonly eventsPerStep: number;
  readonly textBytes: number;
}
let scenario: Scenario;
/** What an execution writes after the last check: the start task (6), "Continued" (2), its end (1). */
const HAND_OVER_EVENTS = 9;

const slices = new Map<string, number>();
function nextSlice(kind: string, batch: number): number {
  const key = `${kind}-${batch}`;
  const n = (slices.get(key) ?? 0) + 1;
  slices.set(key, n);
  return n;
}

/** Events of one step: `health-still-waiting` with Nomad's text as the reason. */
function longEvents(): ProgressEvent[] {
  const text = `check "http": HTTP GET http://10.0.0.1:8080/: 503 Service Unavailable Output: ${'x'.repeat(scenario.textBytes)}`;
  return Array.from({ length: scenario.eventsPerStep }, (_, i) => ({
    type: 'health-still-waiting',
    time: 1,
    allocationId: `alloc-${i}`,
    reason: text.slice(0, scenario.textBytes),
  }));
}

/** The restart steps behind the handlers: one job, planned and run as the scenario says. */
function fakeSteps(): RestartSteps {
  const { batches, batchSize } = scenario;
  const base = plannedState();
  const plan = {
    ...(base.plan as PlanRef),
    allocationCount: batches * batchSize,
    batchSize,
    batchCount: batches,
  };
  const progress = base.progress as Progress;
  const batch = (index: number): BatchState => ({
    index,
    size: batchSize,
    startedAt: 1,
    stopIndex: 0,
    done: false,
    cursor: null,
    errorCount: 0,
    unrecoverable: false,
  });
  return {
    plan: async () => ({
      plan,
      progress,
      decision: { action: 'batch', waitSeconds: 0, question: null },
      events: [],
    }),
    checkDeployments: async (i) => ({ blocked: false, progress: i.progress, events: [] }),
    // No -bake-time in these runs: Decide never chooses `bake`.
    bake: async () => {
      throw new Error('bake not expected');
    },
    restartBatch: async (i) => ({ batch: batch(i.progress.nextBatch), events: longEvents() }),
    triggerEvaluations: async (i) => ({ batch: i.batch, events: [] }),
    awaitBatch: async (i) => ({
      done: nextSlice('await', i.batch.index) >= scenario.awaitSlices,
      cursor: null,
      batch: i.batch,
      events: longEvents(),
    }),
    awaitHealth: async (i) => ({
      done: nextSlice('health', i.batch.index) >= scenario.healthSlices,
      cursor: null,
      batch: i.batch,
      events: longEvents(),
    }),
    decide: async (i) => {
      const nextBatch = i.batch.index + 1;
      return {
        progress: {
          ...i.progress,
          nextBatch,
          batchesThisExecution: i.progress.batchesThisExecution + 1,
          restarted: i.progress.restarted + batchSize,
        },
        decision: { action: nextBatch >= batches ? 'finish' : 'batch', waitSeconds: 0, question: null },
        events: longEvents(),
      };
    },
    applyAnswer: async () => {
      throw new Error('no questions in this scenario');
    },
    finish: async (i) => ({
      summary: summarizeRun(
        runFacts({ jobId: 'web', planned: batches * batchSize, restarted: i.progress?.restarted ?? 0 }),
      ),
      events: [],
    }),
  };
}

jest.unstable_mockModule('../../lib/steps/kit/steps-factory', () => ({
  createRestartSteps: (_deps: RestartStepsDeps) => fakeSteps(),
}));
const { runRestartLocally } = await import('../../lib/engines/local/engine');
const { localStores } = await import('../../lib/stores/from-env');

/** Runs the scenario; `onExit` sees every state's output. */
async function runScenario(onExit: (name: string, state: WorkflowState) => void = () => undefined) {
  slices.clear();
  const run = await runRestartLocally({
    input: { job: 'web', batchSize: String(scenario.batchSize), yes: true, waitHealthy: true },
    stateMachine: (await cachedStack()).stateMachine,
    emit: () => undefined,
    prompt: async () => ({ kind: 'read-error', text: 'EOF' }),
    onStateExited: (name, output) => onExit(name, output as WorkflowState),
  });
  return run.result;
}

beforeAll(() => {
  // No Nomad behind the fake engine: the job's shared lock (a Nomad variable) is left out.
  process.env['NOMAD_RESTART_VARIABLES_LOCK'] = 'false';
});

describe('many await and health slices per batch, with the deployable props', () => {
  it('continues as new before the history limit and finishes the run', async () => {
    // Arrange
    scenario = {
      batches: 2,
      batchSize: 1,
      awaitSlices: 900,
      healthSlices: 900,
      eventsPerStep: 0,
      textBytes: 0,
    };
    const handedOverAt: number[] = [];

    // Act
    const result: ExecutionResult = await runScenario((name, state) => {
      if (name !== 'Batch settled?' && name !== 'Next step?') return;
      if ((state.progress?.historyEvents ?? 0) >= HISTORY_EVENT_BUDGET)
        handedOverAt.push(state.progress?.historyEvents ?? 0);
    });

    // Assert
    const perExecution = (result.executions ?? []).map((e) => e.stats.historyEvents);
    console.info(
      `worst mix: 2 batches × (900 await + 900 health slices): ${perExecution.length} executions, ` +
        `history events per execution ${perExecution.join(' / ')}, largest state ${result.stats.maxPayloadBytes} bytes`,
    );
    expect(result.status).toBe('SUCCEEDED');
    expect(result.stats.historyEvents).toBeGreaterThan(HISTORY_EVENT_LIMIT);
    expect(perExecution.length).toBeGreaterThanOrEqual(2);
    for (const events of perExecution) expect(events).toBeLessThan(HISTORY_EVENT_LIMIT);
    // The estimate never undercounts: at each hand-over it covers what the engine counted.
    expect(handedOverAt).toHaveLength(perExecution.length - 1);
    handedOverAt.forEach((estimate, i) => {
      expect(estimate + HAND_OVER_EVENTS).toBeGreaterThanOrEqual(perExecution[i] ?? Number.POSITIVE_INFINITY);
    });
  });
});

describe('500 events of Nomad text per step', () => {
  it('keeps every state under 256 KiB and the whole lists in the plan store', async () => {
    // Arrange
    scenario = {
      batches: 1,
      batchSize: 500,
      awaitSlices: 2,
      healthSlices: 2,
      eventsPerStep: 500,
      textBytes: 520,
    };
    const elsewhere: EventsElsewhere[] = [];

    // Act
    const result = await runScenario((_name, state) => {
      if (state?.eventsElsewhere?.events !== undefined) elsewhere.push(state.eventsElsewhere.events);
    });

    // Assert
    console.info(`500 events of 520 bytes per step: largest state ${result.stats.maxPayloadBytes} bytes`);
    expect(result.status).toBe('SUCCEEDED');
    expect(result.stats.maxPayloadBytes).toBeLessThan(STEP_FUNCTIONS_LIMITS.payloadBytes);
    // Restart, two await slices, two health slices and Decide each left events out.
    expect(new Set(elsewhere.map((e) => e.key)).size).toBe(6);
    for (const { key, omitted } of elsewhere) {
      const whole = (await localStores.planStore.get(key)) as unknown[];
      expect(whole).toHaveLength(500);
      expect(omitted).toBeGreaterThan(0);
      expect(omitted).toBeLessThan(500);
    }
  });
});
