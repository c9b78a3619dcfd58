import type { NomadClient } from '../nomad/client';
import { type BatchDecision, batchOutcome, decideAfterBatch, waitOrNext } from '../restart/decide';
import type { BatchError } from '../restart/errors';
import type { EmitProgress } from '../restart/events';
import { type BatchWait, formatCount, type RestartOptions } from '../restart/options';
import { type Answer, multiRegionQuestion, proceedQuestion, type Question } from '../restart/questions';
import { awaitBatch } from './await-batch';
import { createAwaitCursor } from './await-cursor';
import { checkDeployments } from './deployments';
import { type AllocationOutcome, batchErrorsOf, failedCountOf } from './outcomes';
import { isLastBatch, planRestart, type RestartPlan } from './plan';
import { triggerEvaluations } from './reschedule';
import { restartBatch } from './restart-batch';

/** Dependencies of {@link runRestart}. */
export interface RunRestartDeps {
  readonly emit: EmitProgress;
  /**
   * Asks a question and returns the interpreted answer. An `invalid` answer makes the
   * question be asked again (the asker prints `Invalid answer "<text>"`).
   */
  readonly ask: (question: Question) => Promise<Answer>;
  /** Unix ms. @default Date.now */
  readonly now?: () => number;
  /**
   * A confirmed interrupt: the run stops at the next safe point (before a batch, or after
   * one is collected) without its final lines, like Nomad's `Canceling job restart process`.
   */
  readonly signal?: AbortSignal;
  /** The wait between batches. @default a timer that the signal cuts short */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** @default 60 s, Nomad's */
  readonly stillWaitingIntervalMs?: number;
}

/** How a run ended. */
export type RunEnd =
  | 'finished'
  | 'nothing-to-restart'
  /** `-dry-run`: planned, nothing written. */
  | 'planned'
  /** "no" to the multi-region question (`Job restart canceled.`, exit 0). */
  | 'multiregion-declined'
  /** "no" to a proceed question. */
  | 'canceled'
  /** A confirmed interrupt. */
  | 'interrupted';

/** The result of {@link runRestart}. */
export interface RunRestartResult {
  readonly end: RunEnd;
  /** Nomad's exit code: 1 when errors were collected, else 0. */
  readonly exitCode: 0 | 1;
  readonly errors: BatchError[];
  /** The plan, when one was made. */
  readonly plan?: RestartPlan;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function askUntilValid(
  ask: RunRestartDeps['ask'],
  question: Question,
): Promise<Exclude<Answer, { kind: 'invalid' }>> {
  for (;;) {
    const answer = await ask(question);
    if (answer.kind !== 'invalid') return answer;
  }
}

/**
 * The whole restart in-process (spec §2.2–§2.10): plan, then per batch the deployment
 * guard, the restart (or stop and, for system jobs, evaluation), the replacement watch, the
 * decision, a question or a wait. The reference the state machine mirrors step by step,
 * and what the integration tests drive.
 */
export async function runRestart(
  client: NomadClient,
  options: RestartOptions,
  deps: RunRestartDeps,
): Promise<RunRestartResult> {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const { emit, signal } = deps;
  const step = { emit, now, ...(signal === undefined ? {} : { signal }) };

  const planned = await planRestart(client, options, {
    ...step,
    confirmMultiregion: async (jobId) =>
      (await askUntilValid(deps.ask, multiRegionQuestion(jobId))).kind === 'yes',
  });
  if (planned.kind === 'canceled') return { end: 'multiregion-declined', exitCode: 0, errors: [] };
  if (planned.kind === 'nothing-to-restart') return { end: 'nothing-to-restart', exitCode: 0, errors: [] };
  const plan = planned;
  if (options.dryRun) return { end: 'planned', exitCode: 0, errors: [], plan };

  const errors: BatchError[] = [];
  let failedAllocations = 0;
  let batchWait: BatchWait = options.batchWait;
  let end: RunEnd = 'finished';
  const interrupted = (): boolean => signal?.aborted === true;

  for (let batchIndex = 0; batchIndex < plan.batches.length; batchIndex++) {
    if (interrupted()) return { end: 'interrupted', exitCode: errors.length > 0 ? 1 : 0, errors, plan };
    const guard = await checkDeployments(client, plan.job, { verbose: options.verbose, signal });
    if (guard !== null) {
      errors.push(guard);
      break;
    }

    let outcomes: AllocationOutcome[] = await restartBatch(client, plan, batchIndex, options, step);
    if (options.reschedule) {
      outcomes = await triggerEvaluations(client, plan, batchIndex, outcomes, options, step);
      let cursor = createAwaitCursor(batchIndex, outcomes, {
        now,
        ...(deps.stillWaitingIntervalMs === undefined
          ? {}
          : { stillWaitingIntervalMs: deps.stillWaitingIntervalMs }),
      });
      for (;;) {
        const slice = await awaitBatch(client, plan, batchIndex, cursor, options, {
          ...step,
          stillWaitingIntervalMs: deps.stillWaitingIntervalMs,
        });
        outcomes = slice.outcomes;
        cursor = slice.cursor;
        if (slice.done) break;
        if (interrupted()) return { end: 'interrupted', exitCode: errors.length > 0 ? 1 : 0, errors, plan };
      }
    }

    const batchErrors = batchErrorsOf(outcomes);
    errors.push(...batchErrors);
    failedAllocations += failedCountOf(outcomes);
    if (interrupted()) return { end: 'interrupted', exitCode: errors.length > 0 ? 1 : 0, errors, plan };

    let decision: BatchDecision = decideAfterBatch({
      isLastBatch: isLastBatch(plan, batchIndex),
      batchErrors,
      onError: options.onError,
      yes: options.yes,
      batchWait,
      ...(plan.maxErrors === undefined ? {} : { maxErrors: plan.maxErrors }),
      failedAllocations,
    });
    if (decision.action === 'finish') break;
    if (decision.action === 'stop') {
      if (decision.reason === 'max-errors') {
        emit({
          type: 'max-errors-exceeded',
          time: now(),
          failed: failedAllocations,
          maxErrors:
            options.maxErrors === undefined ? String(plan.maxErrors) : formatCount(options.maxErrors),
        });
      } else {
        emit({ type: 'stopping', time: now(), reason: decision.reason });
      }
      break;
    }
    if (decision.action === 'ask') {
      if (batchErrors.length > 0) {
        emit({ type: 'batch-errors', time: now(), errors: batchErrors.map((e) => e.message) });
      }
      const answer = await askUntilValid(
        deps.ask,
        proceedQuestion({ outcome: batchOutcome(batchErrors), batchWaitAsk: decision.batchWaitAsk }),
      );
      if (answer.kind === 'no') {
        emit({ type: 'canceled', time: now() });
        end = 'canceled';
        break;
      }
      if (answer.kind === 'wait') {
        batchWait = { kind: 'duration', ns: answer.ns };
        emit({ type: 'new-batch-wait', time: now(), waitMs: answer.ns / 1e6 });
      }
      decision = waitOrNext(batchWait);
    }
    if (decision.action === 'wait') {
      const waitMs = decision.ns / 1e6;
      emit({ type: 'waiting', time: now(), waitMs });
      await sleep(waitMs, signal);
    }
  }

  emit({ type: 'finished', time: now(), errors: errors.map((e) => e.message), canceled: end === 'canceled' });
  return { end, exitCode: errors.length > 0 ? 1 : 0, errors, plan };
}
