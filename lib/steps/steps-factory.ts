/**
 * The ONE place the handlers get their `RestartSteps` implementation from: each step composes
 * the restart engine's functions (`lib/restart/engine/`) with the injected plan store.
 *
 * Plan-store layout, under `runKeyPrefix(runId)`:
 * - `plan.json`: the `RestartPlan` (ordered allocations cut into batches);
 * - `batch-<i>.json`: the batch journal (idempotent re-runs of "Restart batch");
 * - `cursor-<i>.json`: the await cursor (its size grows with the batch, so not in the state);
 * - `result-<i>.json`: the settled batch (errors, failed and restarted counts);
 * - `run.json`: the run's flat error list, the batches already counted, and why it stopped.
 */

import { batchOutcome, decideAfterBatch, waitOrNext } from '../restart/decide';
import { type BatchError, isBatchUnrecoverable } from '../restart/errors';
import type { ProgressEvent } from '../restart/events';
import { formatCount, type RestartOptions } from '../restart/options';
import { interpretAnswer, multiRegionQuestion, proceedQuestion, type Question } from '../restart/questions';
import { formatErrorList, TIMESTAMP_PREFIX_LENGTH } from '../restart/text';
import { runKeyPrefix } from '../stores/plan-store';
import {
  type BatchState,
  type Decision,
  MAX_STEP_EVENTS,
  type PendingQuestion,
  type Progress,
} from '../workflow/payloads';
import type { RestartSteps, RestartStepsDeps } from '../workflow/steps';
import {
  type AllocationOutcome,
  type AwaitCursor,
  awaitBatch,
  type BatchJournal,
  batchErrorsOf,
  checkDeployments,
  createAwaitCursor,
  failedCountOf,
  planRestart,
  type RestartPlan,
  restartBatch,
  triggerEvaluations,
} from './index';
import { cachedPlan, rememberPlan } from './plan-cache';

interface BatchResult {
  readonly errors: BatchError[];
  readonly failed: number;
  readonly restarted: number;
}
interface RunRecord {
  readonly errors: BatchError[];
  readonly countedBatches: number[];
  readonly stoppedOn?: 'error' | 'unrecoverable-error' | 'max-errors';
}
const EMPTY_RUN: RunRecord = { errors: [], countedBatches: [] };
/** Plan-store entry holding the plan's lines while the multi-region question is open. */
const HELD_EVENTS = 'plan-events.json';

function pendingQuestion(question: Question, summary: string): PendingQuestion {
  const text = question.lines.join(`\n${' '.repeat(TIMESTAMP_PREFIX_LENGTH)}`);
  return {
    kind: question.kind === 'multi-region' ? 'multiregion' : 'proceed',
    prompt: `${text} [${question.options}]`,
    summary,
  };
}
const decision = (action: Decision['action'], extra: Partial<Decision> = {}): Decision => ({
  action,
  waitSeconds: 0,
  question: null,
  ...extra,
});
const batchWaitOf = (progress: Progress) =>
  progress.askBetweenBatches
    ? ({ kind: 'ask' } as const)
    : ({ kind: 'duration', ns: Math.max(0, progress.batchWaitMs) * 1e6 } as const);

/** Builds the steps for one invocation (deps carry that invocation's deadline signal). */
export function createRestartSteps(deps: RestartStepsDeps): RestartSteps {
  const { nomad, planStore, now, signal, onEvent } = deps;
  const key = (runId: string, name: string) => `${runKeyPrefix(runId)}${name}`;
  /**
   * Collects a step's events for its result and shows each to the live sink at once. The plan
   * step passes `live: false`: its lines must wait behind the multi-region question.
   */
  const recorder = ({ live } = { live: true }) => {
    const events: ProgressEvent[] = [];
    const seen = live ? onEvent : undefined;
    return {
      events,
      emit: (event: ProgressEvent) => {
        seen?.(event);
        // Past the cap a step keeps its first events; the counters still say what happened.
        if (events.length < MAX_STEP_EVENTS) events.push(event);
      },
    };
  };
  const loadPlan = (planKey: string) =>
    cachedPlan(planKey, async (k) => (await planStore.get(k)) as RestartPlan);
  const tryGet = async <T>(k: string): Promise<T | undefined> => {
    try {
      return (await planStore.get(k)) as T;
    } catch {
      return undefined;
    }
  };
  const loadRun = async (runId: string) => (await tryGet<RunRecord>(key(runId, 'run.json'))) ?? EMPTY_RUN;

  /** Settles a batch: its result for Decide, and the state the graph carries. */
  const settle = async (
    runId: string,
    batch: { index: number; size: number; startedAt: number },
    outcomes: readonly AllocationOutcome[],
  ): Promise<BatchState> => {
    const errors = batchErrorsOf(outcomes);
    const failed = failedCountOf(outcomes);
    const result: BatchResult = { errors, failed, restarted: outcomes.length - failed };
    await planStore.put(key(runId, `result-${batch.index}.json`), result);
    return {
      ...batch,
      stopIndex: 0,
      done: true,
      cursor: null,
      errorCount: errors.length,
      unrecoverable: isBatchUnrecoverable(errors),
    };
  };

  return {
    async plan({ options, run }) {
      const { events, emit } = recorder({ live: false });
      const planned = await planRestart(nomad, options, { emit, now, signal });
      const plan = planned.kind === 'plan' ? planned : undefined;
      const planKey = key(run.runId, 'plan.json');
      if (plan) {
        await planStore.put(planKey, plan);
        rememberPlan(planKey, plan);
      }
      const job = planned.job;
      const progress: Progress = {
        nextBatch: 0,
        batchesThisExecution: 0,
        restarted: 0,
        failed: 0,
        errorCount: 0,
        askBetweenBatches: options.batchWait.kind === 'ask',
        batchWaitMs: options.batchWait.kind === 'duration' ? options.batchWait.ns / 1e6 : 0,
        canceled: false,
      };
      const askMultiregion = plan !== undefined && job.multiregion && !options.yes;
      const next = !plan
        ? decision('finish')
        : askMultiregion
          ? decision('ask', { question: pendingQuestion(multiRegionQuestion(job.id), '') })
          : decision('batch');
      // Nomad asks the multi-region question before it prints anything about the plan: the
      // plan's lines wait in the store until the answer is yes (see applyAnswer).
      if (askMultiregion) await planStore.put(key(run.runId, HELD_EVENTS), events);
      return {
        events: askMultiregion ? [] : events,
        progress,
        decision: next,
        plan: {
          planKey: plan ? planKey : '',
          jobId: job.id,
          namespace: job.namespace ?? options.namespace ?? 'default',
          jobType: job.type ?? '',
          allocationCount: plan?.counts.eligible ?? 0,
          batchSize: plan?.batchSize ?? 0,
          batchCount: plan?.batches.length ?? 0,
          triggerEvaluations: options.reschedule && job.type === 'system',
        },
      };
    },

    async checkDeployments({ options, run, plan: ref, progress }) {
      const plan = await loadPlan(ref.planKey);
      const error = await checkDeployments(nomad, plan.job, { verbose: options.verbose, signal });
      if (error === null) return { events: [], blocked: false, progress };
      const record = await loadRun(run.runId);
      await planStore.put(key(run.runId, 'run.json'), { ...record, errors: [...record.errors, error] });
      return { events: [], blocked: true, progress: { ...progress, errorCount: progress.errorCount + 1 } };
    },

    async restartBatch({ options, run, plan: ref, progress }) {
      const { events, emit } = recorder();
      const plan = await loadPlan(ref.planKey);
      const index = progress.nextBatch;
      const journalKey = key(run.runId, `batch-${index}.json`);
      const journal = await tryGet<BatchJournal>(journalKey);
      const outcomes = await restartBatch(nomad, plan, index, options, {
        emit,
        now,
        signal,
        journal,
        record: (j) => planStore.put(journalKey, j),
      });
      const batch = { index, size: outcomes.length, startedAt: journal?.startedAt ?? now() };
      if (!options.reschedule) return { events, batch: await settle(run.runId, batch, outcomes) };
      const cursor = createAwaitCursor(index, outcomes, { now });
      await planStore.put(key(run.runId, `cursor-${index}.json`), cursor);
      const stopIndexes = outcomes.flatMap((o) => (o.status === 'stopped' ? [o.stopIndex] : []));
      return {
        events,
        batch: {
          ...batch,
          stopIndex: stopIndexes.length > 0 ? Math.min(...stopIndexes) : 0,
          done: false,
          cursor: null,
          errorCount: 0,
          unrecoverable: false,
        },
      };
    },

    async triggerEvaluations({ options, run, plan: ref, batch }) {
      const { events, emit } = recorder();
      const plan = await loadPlan(ref.planKey);
      const cursorKey = key(run.runId, `cursor-${batch.index}.json`);
      const cursor = (await planStore.get(cursorKey)) as AwaitCursor;
      const stopped: AllocationOutcome[] = cursor.waiting.map((w) => ({
        allocationId: w.allocationId,
        group: w.group,
        status: 'stopped',
        stopIndex: w.stopIndex,
      }));
      const evaluated = await triggerEvaluations(nomad, plan, batch.index, stopped, options, {
        emit,
        now,
        signal,
      });
      const next = createAwaitCursor(batch.index, [...Object.values(cursor.settled), ...evaluated], { now });
      await planStore.put(cursorKey, { ...next, startedAt: cursor.startedAt });
      return { events, batch };
    },

    async awaitBatch({ options, run, plan: ref, batch }) {
      const { events, emit } = recorder();
      const plan = await loadPlan(ref.planKey);
      const cursorKey = key(run.runId, `cursor-${batch.index}.json`);
      const cursor = (await planStore.get(cursorKey)) as AwaitCursor;
      const result = await awaitBatch(nomad, plan, batch.index, cursor, options, { emit, now, signal });
      await planStore.put(cursorKey, result.cursor);
      if (!result.done) return { events, done: false, cursor: null, batch };
      return { events, done: true, cursor: null, batch: await settle(run.runId, batch, result.outcomes) };
    },

    async decide({ options, run, plan: ref, progress, batch, cancelRequested }) {
      const { events, emit } = recorder();
      if (cancelRequested) return { events, progress, decision: decision('cancel') };
      const plan = await loadPlan(ref.planKey);
      const result = (await planStore.get(key(run.runId, `result-${batch.index}.json`))) as BatchResult;
      let record = await loadRun(run.runId);
      // A retried Decide must not count the batch twice.
      const counted = record.countedBatches.includes(batch.index);
      if (!counted) {
        record = {
          ...record,
          errors: [...record.errors, ...result.errors],
          countedBatches: [...record.countedBatches, batch.index],
        };
      }
      const next: Progress = counted
        ? progress
        : {
            ...progress,
            nextBatch: batch.index + 1,
            batchesThisExecution: progress.batchesThisExecution + 1,
            restarted: progress.restarted + result.restarted,
            failed: progress.failed + result.failed,
            errorCount: progress.errorCount + result.errors.length,
          };
      const choice = decideAfterBatch({
        isLastBatch: batch.index >= ref.batchCount - 1,
        batchErrors: result.errors,
        onError: options.onError,
        yes: options.yes,
        batchWait: batchWaitOf(next),
        ...(plan.maxErrors === undefined ? {} : { maxErrors: plan.maxErrors }),
        failedAllocations: next.failed,
      });
      let out = decision('batch');
      if (choice.action === 'finish') out = decision('finish');
      else if (choice.action === 'stop') {
        record = { ...record, stoppedOn: choice.reason };
        emit(
          choice.reason === 'max-errors'
            ? {
                type: 'max-errors-exceeded',
                time: now(),
                failed: next.failed,
                maxErrors: maxErrorsText(options, plan),
              }
            : { type: 'stopping', time: now(), reason: choice.reason },
        );
        out = decision('finish');
      } else if (choice.action === 'ask') {
        const messages = result.errors.map((e) => e.message);
        if (messages.length > 0) emit({ type: 'batch-errors', time: now(), errors: messages });
        const question = proceedQuestion({ outcome: choice.outcome, batchWaitAsk: choice.batchWaitAsk });
        out = decision('ask', {
          question: pendingQuestion(question, messages.length > 0 ? formatErrorList(messages, 0) : ''),
        });
      } else if (choice.action === 'wait') {
        emit({ type: 'waiting', time: now(), waitMs: choice.ns / 1e6 });
        out = decision('wait', { waitSeconds: Math.ceil(choice.ns / 1e9) });
      }
      await planStore.put(key(run.runId, 'run.json'), record);
      return { events, progress: next, decision: out };
    },

    async applyAnswer({ run, plan: ref, progress, decision: asked, answer }) {
      const { events, emit } = recorder();
      const pending = asked.question;
      const raw = 'answer' in answer ? answer.answer : undefined;
      if (pending?.kind === 'multiregion') {
        const reply =
          raw === undefined ? { kind: 'no' as const } : interpretAnswer(multiRegionQuestion(ref.jobId), raw);
        if (reply.kind === 'invalid') return { events, progress, decision: asked };
        if (reply.kind === 'yes') {
          const held = (await tryGet<ProgressEvent[]>(key(run.runId, HELD_EVENTS))) ?? [];
          return { events: [...held, ...events], progress, decision: decision('batch') };
        }
        emit({ type: 'multiregion-declined', time: now() });
        return { events, progress: { ...progress, canceled: true }, decision: decision('finish') };
      }
      const last = await tryGet<BatchResult>(key(run.runId, `result-${progress.nextBatch - 1}.json`));
      const question = proceedQuestion({
        outcome: batchOutcome(last?.errors ?? []),
        batchWaitAsk: progress.askBetweenBatches,
      });
      // A timeout is a read error: the question's default (no) applies.
      const reply = raw === undefined ? question.defaultOnInterrupt : interpretAnswer(question, raw);
      if (reply.kind === 'invalid') return { events, progress, decision: asked };
      if (reply.kind === 'no') {
        emit({ type: 'canceled', time: now() });
        return { events, progress: { ...progress, canceled: true }, decision: decision('finish') };
      }
      let next = progress;
      if (reply.kind === 'wait') {
        next = { ...progress, askBetweenBatches: false, batchWaitMs: reply.ns / 1e6 };
        emit({ type: 'new-batch-wait', time: now(), waitMs: reply.ns / 1e6 });
      }
      const after = waitOrNext(batchWaitOf(next));
      if (after.action === 'next') return { events, progress: next, decision: decision('batch') };
      emit({ type: 'waiting', time: now(), waitMs: after.ns / 1e6 });
      return {
        events,
        progress: next,
        decision: decision('wait', { waitSeconds: Math.ceil(after.ns / 1e9) }),
      };
    },

    async finish({ run, plan, progress }) {
      const { events, emit } = recorder();
      const record = plan === null ? EMPTY_RUN : await loadRun(run.runId);
      const messages = record.errors.map((e) => e.message);
      const canceled = progress?.canceled ?? false;
      // "No allocations to restart" is Nomad's whole output for an empty plan (spec §2.2 step 11).
      const nothingPlanned = plan !== null && plan.planKey === '' && messages.length === 0;
      if (!nothingPlanned) emit({ type: 'finished', time: now(), errors: messages, canceled });
      const outcome =
        record.stoppedOn === 'unrecoverable-error'
          ? 'unrecoverable'
          : messages.length > 0
            ? 'failed'
            : canceled
              ? 'canceled'
              : 'succeeded';
      return {
        events,
        summary: {
          outcome,
          jobId: plan?.jobId ?? '',
          namespace: plan?.namespace ?? '',
          restarted: progress?.restarted ?? 0,
          failed: progress?.failed ?? 0,
          errorText: messages.length > 0 ? formatErrorList(messages, 0) : '',
        },
      };
    },
  };
}

function maxErrorsText(options: RestartOptions, plan: RestartPlan): string {
  return options.maxErrors === undefined ? String(plan.maxErrors) : formatCount(options.maxErrors);
}
