/**
 * The `NomadRestartDashboard` construct: one CloudWatch dashboard of a deployment's restarts, drawn
 * from the runs' own metrics (embedded metric format lines of the handlers, lib/metrics/names.ts)
 * beside the state of every alarm the workflow and the fleet have.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, type IConstruct } from 'constructs';
import { METRIC_NAMES, METRICS_NAMESPACE, SERVICE_DIMENSION } from '../metrics/names';
import type { NomadRestartFleet } from './nomad-restart-fleet';
import type { NomadRestartWorkflow } from './nomad-restart-workflow';
import { byOutcome, metricsServiceOf, runMetric } from './private/run-metrics';

/** Props of {@link NomadRestartDashboard}. */
export interface NomadRestartDashboardProps {
  /** The workflow whose runs are drawn (its stack's `service` dimension) and whose alarms are listed. */
  readonly workflow: NomadRestartWorkflow;
  /** The fleet beside it, whose alarms are listed too. @default - no fleet alarms */
  readonly fleet?: NomadRestartFleet;
  /**
   * More constructs whose alarms are listed with the workflow's and the fleet's, e.g. a
   * `NomadRestartSchedule` (its dead-letter queue) or `RunNotifications` (its function's errors,
   * its dead-letter queue). @default - none
   */
  readonly alarmsOf?: readonly IConstruct[];
  /**
   * The dashboard's name. Dashboards are global to the account, not regional: a fixed name would
   * clash when the same stack is deployed in two regions.
   * @default - a name CloudFormation makes unique
   */
  readonly dashboardName?: string;
}

/**
 * Runs are sparse (a nightly maintenance restart, a fleet now and then): a week at a glance, and
 * an hour per point, so a run's counts land in one point instead of scattering over 5-minute ones.
 */
const DEFAULT_INTERVAL = Duration.days(7);
const PERIOD = Duration.hours(1);
/**
 * An alarm status widget lists 1 to 100 alarm ARNs
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html):
 * more alarms (a stack with many schedules) take one widget per hundred.
 */
const MAX_ALARMS_PER_WIDGET = 100;

/**
 * Rows, top to bottom: runs by outcome beside the failed-runs alarm; allocations restarted and
 * failed beside a fleet's jobs by outcome; batch duration, health wait and question wait (p50, p90,
 * max); then the state of every alarm (failed, timed-out and aborted executions, each function's
 * errors, each dead-letter queue, the answer endpoint's throttles, failed runs), a hundred per widget.
 */
export class NomadRestartDashboard extends Construct {
  /** The dashboard. */
  public readonly dashboard: cloudwatch.Dashboard;
  /** The alarms its alarm-status widget lists, in that order. */
  public readonly alarms: readonly cloudwatch.IAlarm[];

  public constructor(scope: Construct, id: string, props: NomadRestartDashboardProps) {
    super(scope, id);
    const { workflow } = props;
    const service = metricsServiceOf(workflow);
    this.alarms = [
      workflow,
      ...(props.fleet === undefined ? [] : [props.fleet]),
      ...(props.alarmsOf ?? []),
    ].flatMap(alarmsUnder);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      ...(props.dashboardName === undefined ? {} : { dashboardName: props.dashboardName }),
      defaultInterval: DEFAULT_INTERVAL,
    });
    const metric = (name: Parameters<typeof runMetric>[1], statistic: string, label: string) =>
      runMetric(service, name, { statistic, period: PERIOD, label });
    const times = (name: Parameters<typeof runMetric>[1]) =>
      (['p50', 'p90', 'Maximum'] as const).map((statistic) => metric(name, statistic, statistic));
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: `# nomad-restart: ${service}\nRuns, batches and questions of this deployment (metrics in namespace \`${METRICS_NAMESPACE}\`, dimension \`${SERVICE_DIMENSION}\` = \`${service}\`), then the state of its alarms. \`nomad-restart history <job>\` says who ran what, and why.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('Runs by outcome', [byOutcome(service, METRIC_NAMES.runs, PERIOD)], 'Runs', { stacked: true }),
      new cloudwatch.AlarmWidget({ title: 'Failed runs', alarm: workflow.failedRunsAlarm, width: 12 }),
    );
    this.dashboard.addWidgets(
      graph(
        'Allocations restarted and failed',
        [
          metric(METRIC_NAMES.allocationsRestarted, cloudwatch.Stats.SUM, 'Restarted'),
          metric(METRIC_NAMES.allocationsFailed, cloudwatch.Stats.SUM, 'Failed'),
        ],
        'Allocations',
      ),
      graph('Fleet jobs by outcome', [byOutcome(service, METRIC_NAMES.fleetJobs, PERIOD)], 'Jobs', {
        stacked: true,
      }),
    );
    this.dashboard.addWidgets(
      graph('Batch duration', times(METRIC_NAMES.batchDuration), 'Milliseconds', { width: 8 }),
      graph('Health wait (-wait-healthy)', times(METRIC_NAMES.healthWaitTime), 'Milliseconds', { width: 8 }),
      graph('Question wait', times(METRIC_NAMES.questionWaitTime), 'Milliseconds', { width: 8 }),
    );
    for (let start = 0; start < this.alarms.length; start += MAX_ALARMS_PER_WIDGET) {
      const alarms = this.alarms.slice(start, start + MAX_ALARMS_PER_WIDGET);
      this.dashboard.addWidgets(
        new cloudwatch.AlarmStatusWidget({
          title: 'Alarms',
          alarms,
          width: 24,
          // About six alarms fit a row of the full-width widget.
          height: 2 + Math.ceil(alarms.length / 6),
        }),
      );
    }
  }
}

/** A graph of the run's metrics, summed or summarised per {@link PERIOD}, half the width by default. */
function graph(
  title: string,
  metrics: cloudwatch.IMetric[],
  unit: string,
  options: { readonly stacked?: boolean; readonly width?: number } = {},
): cloudwatch.GraphWidget {
  return new cloudwatch.GraphWidget({
    title,
    left: metrics,
    leftYAxis: { label: unit, showUnits: false, min: 0 },
    width: options.width ?? 12,
    height: 6,
    period: PERIOD,
    stacked: options.stacked ?? false,
  });
}

/** Every CloudWatch alarm in `scope`'s tree, in the tree's order. */
function alarmsUnder(scope: IConstruct): cloudwatch.Alarm[] {
  return scope.node.findAll().filter((c): c is cloudwatch.Alarm => c instanceof cloudwatch.Alarm);
}
