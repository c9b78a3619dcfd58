import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { startingProgress } from '../../../lib/steps/plan/plan-step';
import type { WorkflowState } from '../../../lib/workflow/payloads';
import type { RestartSteps, RestartStepsDeps } from '../../../lib/workflow/restart-steps';
import { restartOptions } from '../../fixtures/restart-options';

/** A Lambda-shaped context whose remaining time counts down from `budgetMs` on the real clock. */
export function lambdaContext(budgetMs = 60_000): Context {
  const deadline = Date.now() + budgetMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'nomad-restart-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:nomad-restart-test',
    memoryLimitInMB: '256',
    awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
    logGroupName: '/aws/lambda/nomad-restart-test',
    logStreamName: '2026/11/22/[$LATEST]abcdef',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A state right after Plan: one job, three batches of two. */
export function plannedState(overrides: Partial<WorkflowState> = {}): WorkflowState {
  const options = restartOptions('web', { batchSize: { value: 2, percent: false }, onError: 'fail' });
  return {
    options,
    run: { runId: 'arn:exec:run-1', executionId: 'arn:exec:run-1', executionNumber: 1 },
    plan: {
      planKey: 'runs/run-1/plan.json',
      jobId: 'web',
      namespace: 'default',
      jobType: 'service',
      allocationCount: 6,
      batchSize: 2,
      batchCount: 3,
      triggerEvaluations: false,
    },
    progress: startingProgress(options),
    decision: { action: 'batch', waitSeconds: 0, question: null },
    guard: null,
    batch: null,
    summary: null,
    events: [],
    ...overrides,
  };
}

/** Records the deps each step received; methods answer from `impl` or throw "not faked". */
export class FakeSteps {
  public readonly deps: RestartStepsDeps[] = [];
  public readonly calls: Array<{ method: string; input: unknown }> = [];

  public constructor(private readonly impl: Partial<RestartSteps>) {}

  public create = (deps: RestartStepsDeps): RestartSteps => {
    this.deps.push(deps);
    const record =
      (method: keyof RestartSteps) =>
      async (input: unknown): Promise<never> => {
        this.calls.push({ method, input });
        const fn = this.impl[method] as ((i: unknown) => Promise<never>) | undefined;
        if (fn === undefined) throw new Error(`${method} not faked`);
        return fn(input);
      };
    return {
      plan: record('plan'),
      checkDeployments: record('checkDeployments'),
      restartBatch: record('restartBatch'),
      triggerEvaluations: record('triggerEvaluations'),
      awaitBatch: record('awaitBatch'),
      awaitHealth: record('awaitHealth'),
      decide: record('decide'),
      bake: record('bake'),
      applyAnswer: record('applyAnswer'),
      finish: record('finish'),
    };
  };
}

/** Everything written to stdout/stderr while `fn` runs (where Powertools Logger writes). */
export async function captureOutput<T>(
  fn: () => Promise<T>,
): Promise<{ result: T | undefined; error: unknown; output: string }> {
  const chunks: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    chunks.push(String(c));
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    chunks.push(String(c));
    return true;
  });
  try {
    return { result: await fn(), error: undefined, output: chunks.join('') };
  } catch (error) {
    return { result: undefined, error, output: chunks.join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
