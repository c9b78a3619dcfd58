/**
 * Scenario: the EMF lines the handlers write (lambdas/private/run-metrics.ts), with the service and
 * namespace the synthesized template gives the functions, are read back as CloudWatch would, and
 * matched against the synthesized dashboard and failed-runs alarm: every metric a run emits, with
 * its exact dimension set, is one the dashboard draws; every metric the dashboard draws is one a run
 * emits; the alarm watches exactly the failing outcomes' `Runs`. A name, a dimension or a service
 * out of step between the two sides leaves a graph empty on AWS: here it fails.
 */
import { runEndedMetrics, runMetrics } from '../../lambdas/private/run-metrics';
import type { FleetEvent } from '../../lib/fleet/events';
import type { ProgressEvent } from '../../lib/restart/events';
import type { RunOutcome } from '../../lib/restart/run/outcome';
import { type EmfMetric, parseEmf } from '../lambdas/helpers/emf';
import { synthStack } from './helpers/synth';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A metric as CloudWatch identifies it: namespace, name and its dimensions' values. */
interface MetricId {
  readonly namespace: string;
  readonly name: string;
  readonly dimensions: Readonly<Record<string, string>>;
}

const key = (m: MetricId) =>
  `${m.namespace}/${m.name}{${Object.entries(m.dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}}`;

/** The dashboard body's text, tokens as markers (only Ref and Fn::GetAtt occur in it). */
function render(value: Json): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const join = value['Fn::Join'];
    if (Array.isArray(join) && Array.isArray(join[1])) return join[1].map(render).join(String(join[0]));
    if (typeof value['Ref'] === 'string' || Array.isArray(value['Fn::GetAtt'])) return '<token>';
  }
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

const SEARCH = /^SEARCH\('\{([^}]*)\} MetricName="([^"]+)" service="([^"]+)"', 'Sum', \d+\)$/;

/** What the dashboard's graphs read: exact metrics, and searches (one metric per value of the rest). */
function dashboardReads(template: ReturnType<typeof synthStack>['template']) {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as {
    Properties: { DashboardBody: Json };
  }[];
  const body = JSON.parse(render(dashboard?.Properties.DashboardBody ?? null)) as {
    widgets: { properties: { metrics?: Json[][] } }[];
  };
  const lines = body.widgets.flatMap((w) => w.properties.metrics ?? []);
  const exact: MetricId[] = lines
    .filter((l) => typeof l[0] === 'string')
    .map((l) => {
      const [namespace, name, ...rest] = l.slice(0, -1) as string[];
      const dimensions: Record<string, string> = {};
      for (let i = 0; i < rest.length; i += 2) dimensions[rest[i] as string] = rest[i + 1] as string;
      return { namespace: namespace as string, name: name as string, dimensions };
    });
  const searches = lines
    .map((l) => (l[0] as { expression?: string }).expression)
    .filter((e): e is string => e !== undefined)
    .map((expression) => {
      const match = SEARCH.exec(expression);
      if (match === null) throw new Error(`Unexpected search: ${expression}`);
      const [namespace, ...dimensionNames] = (match[1] as string).split(',');
      return { namespace, name: match[2], dimensionNames: dimensionNames.sort(), service: match[3] };
    });
  return { exact, searches };
}

/** The metrics the failed-runs alarm's math reads. */
function alarmReads(template: ReturnType<typeof synthStack>['template']): MetricId[] {
  const [alarm] = Object.entries(template.findResources('AWS::CloudWatch::Alarm'))
    .filter(([id]) => id.startsWith('RestartFailedRuns'))
    .map(([, r]) => r as { Properties: { Metrics: { MetricStat?: { Metric: Record<string, Json> } }[] } });
  return (alarm?.Properties.Metrics ?? []).flatMap(({ MetricStat }) =>
    MetricStat === undefined
      ? []
      : [
          {
            namespace: MetricStat.Metric['Namespace'] as string,
            name: MetricStat.Metric['MetricName'] as string,
            dimensions: Object.fromEntries(
              (MetricStat.Metric['Dimensions'] as { Name: string; Value: string }[]).map((d) => [
                d.Name,
                d.Value,
              ]),
            ),
          },
        ],
  );
}

const { template } = synthStack();

/** What every function is told (the same on each: test/constructs/dashboard.test.ts). */
const environment = (() => {
  const [fn] = Object.values(template.findResources('AWS::Lambda::Function')) as {
    Properties: { Environment: { Variables: Record<string, string> } };
  }[];
  return fn?.Properties.Environment.Variables ?? {};
})();

/** A run's events, as its steps return them, then a fleet's end and the stale-lock rule's counts. */
function emittedLines(): string[] {
  const batch: ProgressEvent = {
    type: 'batch-finished',
    time: 1,
    batchNumber: 1,
    batches: 1,
    restarted: 2,
    failed: 1,
    durationMs: 60_000,
    healthWaitMs: 30_000,
  };
  const question: ProgressEvent = {
    type: 'question-waited',
    time: 2,
    kind: 'proceed',
    waitedMs: 5_000,
    answer: 'yes',
  };
  const ended = (outcome: RunOutcome): ProgressEvent => ({
    type: 'run-ended',
    time: 3,
    runId: `run-${outcome}`,
    jobId: 'payments',
    namespace: 'prod',
    outcome,
    counts: { planned: 3, restarted: 2, failed: 1, skipped: 0, notReached: 0 },
    durationMs: 70_000,
  });
  const fleetEnd = {
    type: 'fleet-finished',
    time: 4,
    restarted: 4,
    failed: 1,
    skipped: 2,
    withErrors: true,
  } as FleetEvent;
  const subject = { runId: 'run-1', jobId: 'payments', namespace: 'prod' };
  return [
    ...runMetrics(
      [
        batch,
        question,
        ...(['succeeded', 'failed', 'unrecoverable', 'error', 'canceled'] as const).map(ended),
      ],
      subject,
    ),
    ...runMetrics([fleetEnd], { runId: 'fleet-1' }),
    ...(['timed-out', 'aborted'] as const).map((outcome) => runEndedMetrics(outcome, subject)),
  ].map((m) => JSON.stringify(m.serializeMetrics()));
}

describe('the EMF lines a run emits, read against the synthesized dashboard', () => {
  const saved = { ...process.env };
  let emitted: EmfMetric[];
  beforeAll(() => {
    // Arrange: the handlers read what the template gives every function.
    process.env['POWERTOOLS_SERVICE_NAME'] = environment['POWERTOOLS_SERVICE_NAME'];
    process.env['POWERTOOLS_METRICS_NAMESPACE'] = environment['POWERTOOLS_METRICS_NAMESPACE'];
    emitted = parseEmf(emittedLines());
  });
  afterAll(() => {
    process.env = saved;
  });

  /** Each emitted metric with each of its dimension sets. */
  const emittedIds = (): MetricId[] =>
    emitted.flatMap((m) =>
      m.dimensions.map((dimensions) => ({ namespace: m.namespace, name: m.name, dimensions })),
    );

  it('draws every metric a run emits, with exactly its dimensions and the stack as service', () => {
    // Act
    const { exact, searches } = dashboardReads(template);
    const undrawn = emittedIds().filter(
      (id) =>
        !exact.some((e) => key(e) === key(id)) &&
        !searches.some(
          (s) =>
            s.namespace === id.namespace &&
            s.name === id.name &&
            s.service === id.dimensions['service'] &&
            JSON.stringify(s.dimensionNames) === JSON.stringify(Object.keys(id.dimensions).sort()),
        ),
    );

    // Assert
    expect(emittedIds().length).toBeGreaterThan(10);
    expect(emittedIds().every((id) => id.dimensions['service'] === 'NomadRestartTest')).toBe(true);
    expect(undrawn.map(key)).toEqual([]);
  });

  it('draws no metric that no run emits', () => {
    // Act
    const emittedKeys = new Set(emittedIds().map(key));
    const unwritten = dashboardReads(template).exact.filter((e) => !emittedKeys.has(key(e)));

    // Assert
    expect(unwritten.map(key)).toEqual([]);
  });

  it('alarms on exactly the Runs a failed, unrecoverable, errored or timed-out run emits', () => {
    // Act
    const watched = alarmReads(template).map(key).sort();
    const failing = emittedIds()
      .filter(
        (id) =>
          id.name === 'Runs' &&
          ['failed', 'unrecoverable', 'error', 'timed-out'].includes(id.dimensions['Outcome'] ?? ''),
      )
      .map(key)
      .sort();

    // Assert
    expect(failing).toHaveLength(4);
    expect(watched).toEqual(failing);
  });
});
