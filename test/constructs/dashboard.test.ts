/**
 * The runs' dashboard and the failed-runs alarm in the synthesized template: every function emits
 * under the stack's `service` in namespace `NomadRestart`; the dashboard body (an Fn::Join, read
 * back as JSON) draws exactly those metrics, with no dimension but `service` (and `Outcome`), and
 * lists every alarm of the stack; the alarm sums `Runs` of the failing outcomes; `dashboard: false`
 * leaves the dashboard out and keeps the alarm; cdk-nag stays clean.
 */
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Construct } from 'constructs';
import { NomadRestartDashboard } from '../../lib/constructs/nomad-restart-dashboard';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';
import { stackPropsFromContext } from '../../lib/constructs/stack-context';
import { METRICS_NAMESPACE } from '../../lib/metrics/names';
import { awsSolutionsFindings } from './helpers/nag';
import { synthWithApprovalChannels } from './helpers/synth';

const EMAIL_TOPIC = 'arn:aws:sns:us-east-1:123456789012:nomad-restart-questions';
const STACK = 'DashboardTest';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Widget = { type: string; properties: Record<string, Json> };

/**
 * A CloudFormation string (Fn::Join of literals, Ref, Fn::GetAtt) as text, each token as a marker
 * naming it (`<Ref:AWS::Region>`, `<GetAtt:RestartFailedRuns…:Arn>`), so the alarms are told apart.
 */
function render(value: Json): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`Cannot render ${JSON.stringify(value)}`);
  const join = value['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1])) return join[1].map(render).join(String(join[0]));
  if (typeof value['Ref'] === 'string') return `<Ref:${value['Ref']}>`;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return `<GetAtt:${getAtt.join(':')}>`;
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

/** The widgets of the template's one dashboard. */
function widgetsOf(template: Template): Widget[] {
  const dashboards = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  expect(dashboards).toHaveLength(1);
  const body = (dashboards[0] as { Properties: { DashboardBody: Json } }).Properties.DashboardBody;
  return (JSON.parse(render(body)) as { widgets: Widget[] }).widgets;
}

const titled = (widgets: Widget[], title: string) => {
  const found = widgets.find((w) => w.properties['title'] === title);
  if (found === undefined) throw new Error(`no widget "${title}"`);
  return found;
};

/** Every metric line of a graph: `[namespace, name, dimension, value, ..., {stat}]` or `[{expression}]`. */
const linesOf = (widget: Widget) => widget.properties['metrics'] as Json[][];

// Every feature that adds a function or an alarm: the endpoint, the notifiers, the run ends' queue.
const { app, stack, template } = (() => {
  const synth = synthWithApprovalChannels(STACK, EMAIL_TOPIC, { notifyRunEnded: true });
  return { ...synth, stack: synth.app.node.findChild(STACK) as Stack };
})();
const widgets = widgetsOf(template);

describe('NomadRestartStack metrics', () => {
  it("names every function's metrics service after the stack, in the NomadRestart namespace", () => {
    // Act
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));

    // Assert
    expect(functions.length).toBeGreaterThan(15);
    template.allResourcesProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          POWERTOOLS_SERVICE_NAME: STACK,
          POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        }),
      },
    });
  });
});

describe('NomadRestartDashboard', () => {
  it.each([
    ['Allocations restarted and failed', 'AllocationsRestarted', 'Sum'],
    ['Allocations restarted and failed', 'AllocationsFailed', 'Sum'],
    ['Batch duration', 'BatchDuration', 'p50'],
    ['Batch duration', 'BatchDuration', 'p90'],
    ['Batch duration', 'BatchDuration', 'Maximum'],
    ['Health wait (-wait-healthy)', 'HealthWaitTime', 'p90'],
    ['Question wait', 'QuestionWaitTime', 'Maximum'],
  ])('draws "%s" from %s (%s) of this stack only', (title, metric, stat) => {
    // Act
    const line = linesOf(titled(widgets, title)).find(
      (l) => l[1] === metric && (l.at(-1) as { stat: string }).stat === stat,
    );

    // Assert
    expect(line).toEqual([METRICS_NAMESPACE, metric, 'service', STACK, expect.objectContaining({ stat })]);
  });

  it('draws no metric with a dimension other than service: no job, no run', () => {
    // Act
    const dimensionNames = widgets
      .flatMap((w) => (w.properties['metrics'] as Json[][] | undefined) ?? [])
      .filter((l) => typeof l[0] === 'string')
      .flatMap((l) => l.slice(2, -1).filter((_, i) => i % 2 === 0));

    // Assert
    expect(dimensionNames.length).toBeGreaterThan(10);
    expect(new Set(dimensionNames)).toEqual(new Set(['service']));
  });

  it.each([
    ['Runs by outcome', 'Runs'],
    ['Fleet jobs by outcome', 'FleetJobs'],
  ])('draws "%s" as one line per Outcome of %s of this stack, summed per hour', (title, metric) => {
    // Act
    const lines = linesOf(titled(widgets, title));

    // Assert
    expect(lines).toEqual([
      [
        {
          expression: `SEARCH('{NomadRestart,Outcome,service} MetricName="${metric}" service="${STACK}"', 'Sum', 3600)`,
          period: 3600,
        },
      ],
    ]);
  });

  it('is named in the stack output DashboardName', () => {
    // Act
    const [id] = Object.keys(template.findResources('AWS::CloudWatch::Dashboard'));

    // Assert
    template.hasOutput('DashboardName', { Value: { Ref: id } });
  });

  it('graphs the failed-runs alarm', () => {
    // Act
    const annotations = titled(widgets, 'Failed runs').properties['annotations'];

    // Assert
    expect(annotations).toEqual({ alarms: [`<GetAtt:${failedRunsAlarmId()}:Arn>`] });
  });

  it('lists every alarm of the stack, each once, in its alarm status widget', () => {
    // Arrange
    const alarmIds = Object.keys(template.findResources('AWS::CloudWatch::Alarm'));

    // Act
    const listed = titled(widgets, 'Alarms').properties['alarms'] as string[];

    // Assert: the executions', the functions' errors, the dead-letter queues', the endpoint's, failed runs.
    expect(alarmIds.length).toBeGreaterThan(20);
    expect(listed).toHaveLength(alarmIds.length);
    expect(new Set(listed)).toEqual(new Set(alarmIds.map((id) => `<GetAtt:${id}:Arn>`)));
  });

  describe('beside a bare workflow', () => {
    const bare = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Bare', {
      env: { account: '123456789012', region: 'us-east-1' },
    });
    const workflow = new NomadRestartWorkflow(bare, 'Restart', {
      nomadAddress: 'https://nomad.internal:4646',
    });
    const small = new NomadRestartDashboard(bare, 'Dashboard', { workflow });

    it('lists the alarms of the workflow it is given', () => {
      // Act
      const listed = small.alarms;

      // Assert
      expect(listed).toContain(workflow.failedRunsAlarm);
      expect(listed).toContain(workflow.executionAlarms.failed);
      expect(listed).toContain(workflow.staleLockDeadLetters.alarm);
    });

    it("lists more than a hundred alarms in widgets of a hundred at most, CloudWatch's limit", () => {
      // Arrange: a construct of 120 alarms of its own, listed beside the workflow's.
      const many = new Construct(bare, 'Many');
      const metric = workflow.stateMachine.metricFailed();
      for (let i = 0; i < 120; i++)
        metric.createAlarm(many, `Alarm${i}`, { threshold: 1, evaluationPeriods: 1 });
      new NomadRestartDashboard(bare, 'Big', { workflow, alarmsOf: [many] });

      // Act
      const [big] = Object.entries(Template.fromStack(bare).findResources('AWS::CloudWatch::Dashboard'))
        .filter(([id]) => id.startsWith('Big'))
        .map(([, r]) => (r as { Properties: { DashboardBody: Json } }).Properties.DashboardBody);
      const sizes = (JSON.parse(render(big as Json)) as { widgets: Widget[] }).widgets
        .filter((w) => w.type === 'alarm')
        .map((w) => (w.properties['alarms'] as string[]).length);

      // Assert
      expect(sizes).toHaveLength(2);
      expect(Math.max(...sizes)).toBe(100);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(small.alarms.length + 120);
    });
  });
});

/** The failed-runs alarm's logical id. */
function failedRunsAlarmId(): string {
  const ids = Object.keys(template.findResources('AWS::CloudWatch::Alarm')).filter((id) =>
    id.startsWith('RestartFailedRuns'),
  );
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

describe('the failed-runs alarm', () => {
  it('sums Runs of the failed, unrecoverable, error and timed-out outcomes of this stack per 5 minutes', () => {
    // Act
    const alarm = template.findResources('AWS::CloudWatch::Alarm')[failedRunsAlarmId()] as {
      Properties: Record<string, Json>;
    };

    // Assert
    const runs = (outcome: string) => ({
      Id: `runs_${outcome.replace('-', '_')}`,
      MetricStat: {
        Metric: {
          Namespace: METRICS_NAMESPACE,
          MetricName: 'Runs',
          Dimensions: [
            { Name: 'Outcome', Value: outcome },
            { Name: 'service', Value: STACK },
          ],
        },
        Period: 300,
        Stat: 'Sum',
      },
      ReturnData: false,
    });
    expect(alarm.Properties).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      Metrics: [
        {
          Expression:
            'SUM([FILL(runs_failed, 0), FILL(runs_unrecoverable, 0), FILL(runs_error, 0), FILL(runs_timed_out, 0)])',
          ReturnData: true,
        },
        runs('failed'),
        runs('unrecoverable'),
        runs('error'),
        runs('timed-out'),
      ],
    });
  });

  it("is the workflow's public failedRunsAlarm, for the operator to wire to SNS", () => {
    // Act
    const id = stack.getLogicalId(
      (stack.node.findChild('Restart') as NomadRestartWorkflow).failedRunsAlarm.node
        .defaultChild as CfnElement,
    );

    // Assert
    expect(id).toBe(failedRunsAlarmId());
  });
});

describe('NomadRestartStack with dashboard: false', () => {
  it('draws no dashboard and keeps the failed-runs alarm', () => {
    // Act
    const { template: without } = synthWithApprovalChannels('NoDashboard', EMAIL_TOPIC, { dashboard: false });

    // Assert
    without.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    expect(Object.keys(without.findOutputs('DashboardName'))).toEqual([]);
    expect(
      Object.keys(without.findResources('AWS::CloudWatch::Alarm')).filter((id) =>
        id.startsWith('RestartFailedRuns'),
      ),
    ).toHaveLength(1);
  });
});

describe('stackPropsFromContext with dashboard', () => {
  const context = (value: string | undefined) => (key: string) =>
    ({ nomadAddress: 'https://nomad.internal:4646', dashboard: value })[key];

  it.each([
    ['false', false],
    ['true', true],
    [undefined, undefined],
  ])('reads -c dashboard=%s', (value, expected) => {
    // Act
    const props = stackPropsFromContext(context(value));

    // Assert
    expect(props.dashboard).toBe(expected);
  });

  it('names the setting when the value is not true or false', () => {
    // Act
    const act = () => stackPropsFromContext(context('off'));

    // Assert
    expect(act).toThrow('Context "dashboard" is "off"; give true or false, e.g. -c dashboard=false');
  });
});

describe('cdk-nag AwsSolutionsChecks', () => {
  it('reports no unacknowledged finding with the dashboard', () => {
    // Act
    const report = awsSolutionsFindings(app);

    // Assert
    expect(report).toEqual({ findings: [], success: true });
  });
});
