/**
 * Publishes the run's metrics (run-metrics.ts) once a step returned: Powertools writes each EMF
 * document as one line on stdout (past the Lambda runtime's log formatting), which CloudWatch
 * Logs turns into metrics. Only on Lambda: the local engine runs the same handlers at a terminal,
 * whose stdout is Nomad's lines, so a local invocation publishes none (a test may take the
 * documents through its `metricLines` sink). Never fails the step: a restart matters more than
 * its metrics.
 */
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isLocalInvocation, metricLinesOf } from '../../lib/steps/kit/local-invocation';
import { logger } from './logger';
import { type MetricsSubject, runMetrics } from './run-metrics';

interface StepResponse {
  readonly events?: unknown;
  readonly runId?: unknown;
  readonly run?: { readonly runId?: unknown } | null;
  readonly plan?: { readonly jobId?: unknown; readonly namespace?: unknown } | null;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The run and job a workflow state (or a fleet's summary) is about. */
function subjectOf(response: StepResponse): MetricsSubject {
  const runId = text(response.run?.runId) ?? text(response.runId);
  const jobId = text(response.plan?.jobId);
  const namespace = text(response.plan?.namespace);
  return {
    ...(runId === undefined ? {} : { runId }),
    ...(jobId === undefined ? {} : { jobId }),
    ...(namespace === undefined ? {} : { namespace }),
  };
}

/**
 * Whether this process is a Lambda function's: the runtime always sets `AWS_LAMBDA_FUNCTION_NAME`
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime).
 * Anything else that runs a handler (a terminal's local engine, a test, a script) has a stdout of
 * its own, which must not receive EMF lines.
 */
const onLambda = (): boolean => (process.env['AWS_LAMBDA_FUNCTION_NAME'] ?? '') !== '';

/**
 * Publishes what `made` makes, on Lambda (or to a local test's sink); never throws. `made` runs
 * only where something will be published.
 */
export function publishRunMetrics(context: Context, made: () => readonly Metrics[]): void {
  const sink = metricLinesOf(context);
  if (sink === undefined && (isLocalInvocation(context) || !onLambda())) return;
  try {
    for (const metrics of made()) {
      if (sink === undefined) metrics.publishStoredMetrics();
      else sink(JSON.stringify(metrics.serializeMetrics()));
    }
  } catch (error) {
    logger.warn('Run metrics not published', { reason: error instanceof Error ? error.name : 'unknown' });
  }
}

/** The middleware, last in the chain: its `after` sees the step's events before their budgets cut them. */
export function runMetricsMiddleware(): MiddlewareObj<unknown, unknown, Error, Context> {
  const runMetricsMiddlewareAfter = (request: Request<unknown, unknown, Error, Context>): void => {
    const response = request.response as StepResponse | null | undefined;
    if (response === null || typeof response !== 'object' || !Array.isArray(response.events)) return;
    const events = response.events;
    publishRunMetrics(request.context, () => runMetrics(events, subjectOf(response)));
  };
  return { after: runMetricsMiddlewareAfter };
}
