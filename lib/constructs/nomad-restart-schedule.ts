/**
 * The `NomadRestartSchedule` construct: an EventBridge Scheduler schedule that starts a restart
 * on a cron or rate, in a time zone, with a fixed input checked at `cdk synth` against the same
 * rules as every other entry point, through a role that may only start that one state machine.
 */

import { Duration, RemovalPolicy, Stack, TimeZone, ValidationError } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { type FleetInput, validateFleetInput } from '../fleet/input';
import { formatGoDuration, parseGoDuration } from '../go/duration';
import { RestartValidationError } from '../restart/errors';
import { validateExecutionInput } from '../restart/execution-input';
import type { RestartInput } from '../restart/input';
import { SCHEDULE_TRIGGER } from '../restart/window';
import { NomadRestartFleet } from './nomad-restart-fleet';
import { NomadRestartWorkflow } from './nomad-restart-workflow';
import { notifyAlarmsTo } from './private/alarm-actions';
import { DeadLetterQueue } from './private/dead-letter-queue';
import { isTimeZone, scheduleExpressionProblem } from './private/schedule-expression';

/** The restart input a schedule sends, less the fields the schedule sets itself. */
export type ScheduledRestartInput = Omit<RestartInput, 'trigger' | 'scheduleName' | 'scheduledTime'>;

/** A fleet input a schedule sends (no `job`: its selectors choose the jobs), less the same fields. */
export type ScheduledFleetInput = Omit<FleetInput, 'trigger' | 'scheduleName' | 'scheduledTime'>;

/** Props of {@link NomadRestartSchedule}. */
export interface NomadRestartScheduleProps {
  /**
   * The state machine to start: `NomadRestartWorkflow.stateMachine` (or one imported) for a job's
   * input, `NomadRestartFleet.stateMachine` for a fleet input.
   */
  readonly stateMachine: sfn.IStateMachine;
  /**
   * The schedule's name: 1 to 64 letters, digits, `-`, `_` and `.`. Unique in its group; it is
   * also in every run's input (`scheduleName`) and summary, and in every synth error about it.
   */
  readonly scheduleName: string;
  /**
   * When to start: `cron(minutes hours day-of-month month day-of-week year)` (EventBridge's six
   * fields, one of the day fields `?`), `rate(value unit)` or `at(yyyy-mm-ddThh:mm:ss)`, e.g.
   * `cron(0 3 ? * SUN *)` for Sundays at 03:00.
   */
  readonly schedule: string;
  /** IANA time zone a cron or `at` expression is read in; daylight saving time follows it. @default 'UTC' */
  readonly timeZone?: string;
  /**
   * Lets Scheduler start the run up to this long after the scheduled time (1 minute to 24
   * hours), to spread load. The maintenance window still counts from the scheduled time.
   * @default - the run starts at the scheduled time
   */
  readonly flexibleWindow?: Duration;
  /**
   * The restart: the execution input as the console takes it, one job's (`job`, `batchSize`,
   * `batchWait`, ...) or, without `job`, a fleet's (`namespace`, `filter`, `maxJobs`, ...; a weekly
   * restart of a whole namespace is one schedule). Checked at synth with Nomad's messages; the
   * schedule adds `trigger`, `scheduleName` and `scheduledTime`. Unattended: `batchWait: "ask"` or
   * the default `onError: "ask"` park questions in the approvals table until someone answers or
   * they time out.
   */
  readonly input: ScheduledRestartInput | ScheduledFleetInput;
  /**
   * The maintenance window, counted from the scheduled time: no batch starts after it, and a run
   * still going stops at the next safe point (`StoppedAtWindowEnd`). Sets the input's
   * `windowDuration` (give one or the other).
   * @default - no window: the run goes on until it is done
   */
  readonly maintenanceWindow?: Duration;
  /**
   * CloudWatch alarms that stop each run as a failed batch does (`-stop-on-alarm`, docs/alarms.md),
   * added to the input's `stopOnAlarms` by ARN. @default - the input's `stopOnAlarms`, if any
   */
  readonly stopOnAlarms?: readonly cloudwatch.IAlarm[];
  /** @default - a description naming the job */
  readonly description?: string;
  /** Whether the schedule fires. @default true */
  readonly enabled?: boolean;
  /**
   * The schedule group. Names are unique per group only: in the account's `default` group two
   * stacks' schedules of the same name would collide.
   * @default - the stack's own group, one for all its NomadRestartSchedules, deleted with the stack
   */
  readonly scheduleGroup?: scheduler.IScheduleGroup;
  /**
   * How often Scheduler retries a failed StartExecution (throttling, a service error). A retry
   * that starts a second run meets the job lock and is skipped. @default 185
   */
  readonly retryAttempts?: number;
  /**
   * How long Scheduler keeps retrying a start that failed (its retry policy's maximum event age):
   * after that the firing goes to the dead-letter queue, whose alarm says so, and the run does
   * not start late. 1 minute to 24 hours.
   * @default - the maintenance window when there is one (no batch would start after it), else
   * 15 minutes: a maintenance restart should not start hours after its time
   */
  readonly maxStartDelay?: Duration;
  /** Where the schedule's alarm (its dead-letter queue) goes. @default - it notifies nobody */
  readonly alarmTopic?: sns.ITopic;
}

/** Scheduler's maximum: retries stop after 185 attempts or at `maxStartDelay`, whichever comes first. */
const DEFAULT_RETRY_ATTEMPTS = 185;
/** {@link NomadRestartScheduleProps.maxStartDelay} of a schedule without a window. */
const DEFAULT_MAX_START_DELAY = Duration.minutes(15);
/** The construct id of a stack's own schedule group, under the stack. */
const STACK_GROUP_ID = 'NomadRestartSchedules';
const NAME = /^[0-9A-Za-z_.-]{1,64}$/;
const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

/**
 * A scheduled maintenance restart: an EventBridge Scheduler schedule whose target starts the
 * restart state machine (or, with a fleet input, the fleet's) with a fixed, synth-checked input. A run that finds the job locked by
 * another run is skipped and says so (`SkippedJobLocked`), never queued.
 */
export class NomadRestartSchedule extends Construct {
  /** The Scheduler schedule. */
  public readonly schedule: scheduler.Schedule;
  /**
   * The role Scheduler assumes for this schedule: `states:StartExecution` on the one state
   * machine, assumable by Scheduler for the schedule's group in this account only.
   */
  public readonly role: iam.Role;
  /**
   * Firings Scheduler could not start (a denied or failed StartExecution after its retries), with
   * an alarm: without it they would be dropped, silently.
   */
  public readonly deadLetters: DeadLetterQueue;
  /** The execution input every run gets, as it is sent (with Scheduler's `<aws.scheduler.scheduled-time>`). */
  public readonly executionInput: Readonly<Record<string, unknown>>;

  public constructor(scope: Construct, id: string, props: NomadRestartScheduleProps) {
    super(scope, id);
    const name = props.scheduleName;
    const fail = (code: string, reason: string): never => {
      throw new ValidationError(lit(code), `Schedule ${JSON.stringify(name)}: ${reason}`, this);
    };
    if (!NAME.test(name)) {
      fail('InvalidScheduleName', 'the name must be 1 to 64 letters, digits, "-", "_" or "."');
    }
    const expressionProblem = scheduleExpressionProblem(props.schedule);
    if (expressionProblem !== undefined) {
      fail(
        'InvalidScheduleExpression',
        `invalid schedule ${JSON.stringify(props.schedule)}: ${expressionProblem}`,
      );
    }
    const timeZone = props.timeZone ?? 'UTC';
    if (!isTimeZone(timeZone)) {
      fail(
        'InvalidScheduleTimeZone',
        `unknown time zone ${JSON.stringify(timeZone)}: expected an IANA name such as "Europe/Berlin"`,
      );
    }
    const flexible = props.flexibleWindow;
    if (flexible !== undefined && outsideMinuteToDay(flexible)) {
      fail(
        'InvalidFlexibleWindow',
        `flexibleWindow must be from 1 minute to 24 hours, got ${flexible.toHumanString()}`,
      );
    }

    const input: Record<string, unknown> = { ...props.input };
    if (props.maintenanceWindow !== undefined) {
      if (input['windowDuration'] !== undefined) {
        fail(
          'InvalidMaintenanceWindow',
          "give the window once: maintenanceWindow or the input's windowDuration",
        );
      }
      input['windowDuration'] = formatGoDuration(props.maintenanceWindow.toSeconds() * 1e9);
    }
    const alarms = (props.stopOnAlarms ?? []).map((alarm) => alarm.alarmArn);
    if (alarms.length > 0)
      input['stopOnAlarms'] = [...((input['stopOnAlarms'] as string[]) ?? []), ...alarms];
    Object.assign(input, { trigger: SCHEDULE_TRIGGER, scheduleName: name });
    const fleet = !('job' in props.input);
    const targetProblem = targetMismatch(props.stateMachine, fleet);
    if (targetProblem !== undefined) fail('InvalidScheduleTarget', targetProblem);
    try {
      if (fleet) validateFleetInput(input, { interactive: true });
      else validateExecutionInput(input);
    } catch (err) {
      if (!(err instanceof RestartValidationError)) throw err;
      fail('InvalidScheduleInput', err.message);
    }
    const given = props.maxStartDelay;
    if (given !== undefined && outsideMinuteToDay(given)) {
      fail(
        'InvalidMaxStartDelay',
        `maxStartDelay must be from 1 minute to 24 hours, got ${given.toHumanString()}`,
      );
    }
    // A window longer than a day (or shorter than a minute) is brought into Scheduler's range.
    const maxStartDelay = clamp(
      given ?? windowOf(input) ?? DEFAULT_MAX_START_DELAY,
      Duration.minutes(1),
      Duration.hours(24),
    );
    // Scheduler writes the time it fired for, so the window counts from it even when the run
    // starts late (flexible window, retries).
    this.executionInput = { ...input, scheduledTime: scheduler.ContextAttribute.scheduledTime };

    const stack = Stack.of(this);
    const group = props.scheduleGroup ?? stackScheduleGroup(stack);
    this.role = new iam.Role(this, 'Role', {
      description: `EventBridge Scheduler: starts restart ${name}`,
      // Scheduler assumes a target's role with the schedule GROUP's ARN as aws:SourceArn, never
      // the schedule's ("Confused deputy prevention", EventBridge Scheduler User Guide:
      // https://docs.aws.amazon.com/scheduler/latest/UserGuide/cross-service-confused-deputy-prevention.html).
      // A condition on the schedule's own ARN is never met: every firing would be dropped.
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'aws:SourceArn': group.scheduleGroupArn,
          },
        },
      }),
    });
    // Scheduler sends to it with the target's role (CDK grants the role sqs:SendMessage on it).
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', {
      holds: `Scheduled restarts ${name} that EventBridge Scheduler could not start`,
    });
    this.schedule = new scheduler.Schedule(this, 'Schedule', {
      scheduleName: name,
      schedule: scheduler.ScheduleExpression.expression(props.schedule, TimeZone.of(timeZone)),
      target: new targets.StepFunctionsStartExecution(props.stateMachine, {
        role: this.role,
        input: scheduler.ScheduleTargetInput.fromObject(this.executionInput),
        retryAttempts: props.retryAttempts ?? DEFAULT_RETRY_ATTEMPTS,
        maxEventAge: maxStartDelay,
        deadLetterQueue: this.deadLetters.queue,
      }),
      description:
        props.description ??
        `${'job' in props.input ? `nomad job restart ${String(props.input.job)}` : 'nomad-restart fleet'} (${props.schedule} ${timeZone})`,
      enabled: props.enabled ?? true,
      timeWindow:
        flexible === undefined ? scheduler.TimeWindow.off() : scheduler.TimeWindow.flexible(flexible),
      scheduleGroup: group,
    });
    // The schedule names its group by name, which CloudFormation does not read as a dependency:
    // without this the schedule could be created before the group it goes in.
    this.schedule.node.addDependency(group);
    if (props.alarmTopic !== undefined) notifyAlarmsTo(this, props.alarmTopic);
  }
}

/**
 * Why the input cannot go to the state machine, when the state machine is one of ours and of the
 * other kind: a fleet input to the one-job state machine (or a job's to the fleet's) would end
 * every run in InvalidInput.
 */
function targetMismatch(stateMachine: sfn.IStateMachine, fleet: boolean): string | undefined {
  const owner = stateMachine.node.scope;
  if (fleet && owner instanceof NomadRestartWorkflow)
    return 'the input has no "job", so it is a fleet input: give it the fleet state machine (NomadRestartFleet.stateMachine), not the one-job one';
  if (!fleet && owner instanceof NomadRestartFleet)
    return 'the input names a "job": give it the one-job state machine (NomadRestartWorkflow.stateMachine), not the fleet\'s';
  return undefined;
}

/** The input's `windowDuration`, when it has one (a window end alone is not a length). */
function windowOf(input: Record<string, unknown>): Duration | undefined {
  const text = input['windowDuration'];
  if (typeof text !== 'string') return undefined;
  return Duration.seconds(Math.ceil(parseGoDuration(text) / 1e9));
}

/** Whether `d` is outside the 1 minute to 24 hours Scheduler takes for its windows and event ages. */
function outsideMinuteToDay(d: Duration): boolean {
  if (d.isUnresolved()) return false;
  const minutes = d.toMinutes({ integral: false });
  return minutes < 1 || minutes > 1440;
}

function clamp(d: Duration, min: Duration, max: Duration): Duration {
  if (d.isUnresolved()) return d;
  const ms = d.toMilliseconds();
  return ms < min.toMilliseconds() ? min : ms > max.toMilliseconds() ? max : d;
}

/**
 * The schedule group of every NomadRestartSchedule in `stack` that names none, created with the
 * first: its generated name is unique to the stack, and it goes when the stack does (its
 * schedules are the stack's own resources, deleted with it anyway).
 */
function stackScheduleGroup(stack: Stack): scheduler.IScheduleGroup {
  const existing = stack.node.tryFindChild(STACK_GROUP_ID);
  if (existing instanceof scheduler.ScheduleGroup) return existing;
  return new scheduler.ScheduleGroup(stack, STACK_GROUP_ID, { removalPolicy: RemovalPolicy.DESTROY });
}
