/**
 * Scenario: the weekly maintenance restart of docs/schedules.md (examples/weekly-restart.ts:
 * Sundays 03:00 Europe/Berlin, 10% at a time, no batch after 05:00) synthesized with the stack,
 * checked as a template: the schedule's expression, time zone, flexible window and input, its
 * role (may only start this state machine, assumed by Scheduler for the schedule's group), its
 * retries and watched dead-letter queue, cdk-nag; a window-end input; and every bad value refused
 * at synth with the schedule's name and the reason.
 */
import { readFileSync } from 'node:fs';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import {
  NomadRestartSchedule,
  type NomadRestartScheduleProps,
} from '../../lib/constructs/nomad-restart-schedule';
import type { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { WINDOW_INPUT_FIELDS } from '../fixtures/restart-options';
import { expectWatchedDeadLetterQueue, queueArn, queueIdOf } from './helpers/dead-letters';
import { awsSolutionsFindings } from './helpers/nag';

let app: App;
let stack: NomadRestartStack;
let template: Template;

beforeAll(async () => {
  // Bundling the Lambda code is not what this file tests (the App reads this variable).
  process.env['CDK_CONTEXT_JSON'] = JSON.stringify({ 'aws:cdk:bundling-stacks': [] });
  ({ app, stack } = await import('../../examples/weekly-restart'));
  delete process.env['CDK_CONTEXT_JSON'];
  template = Template.fromStack(stack);
});

const stateMachineRef = () => {
  const [logicalId] = Object.keys(template.findResources('AWS::StepFunctions::StateMachine')).filter((id) =>
    id.startsWith('RestartStateMachine'),
  );
  return { Ref: logicalId };
};

describe('NomadRestartSchedule', () => {
  describe('the weekly example of docs/schedules.md', () => {
    it('is the code docs/schedules.md shows', () => {
      // Arrange
      const source = readFileSync('examples/weekly-restart.ts', 'utf8');
      const doc = readFileSync('docs/schedules.md', 'utf8');

      // Act
      const example = /\/\/ docs: weekly example\n([\s\S]*?)\/\/ docs: end/.exec(source)?.[1] ?? '';

      // Assert
      expect(example).toContain('new NomadRestartSchedule(');
      expect(doc).toContain(example.trim());
    });

    it('fires Sundays at 03:00 Berlin time, up to 5 minutes late, starting this state machine', () => {
      // Act
      const schedules = template.findResources('AWS::Scheduler::Schedule');

      // Assert
      expect(Object.keys(schedules)).toHaveLength(1);
      template.hasResourceProperties('AWS::Scheduler::Schedule', {
        Name: 'weekly-example',
        ScheduleExpression: 'cron(0 3 ? * SUN *)',
        ScheduleExpressionTimezone: 'Europe/Berlin',
        FlexibleTimeWindow: { Mode: 'FLEXIBLE', MaximumWindowInMinutes: 5 },
        State: 'ENABLED',
        Target: Match.objectLike({ Arn: stateMachineRef() }),
      });
    });

    it('sends the restart input, the 2h window, the trigger and the scheduled time', () => {
      // Arrange
      const input = new Capture();
      template.hasResourceProperties('AWS::Scheduler::Schedule', {
        Target: Match.objectLike({ Input: input }),
      });

      // Act
      const sent = JSON.parse(input.asString()) as Record<string, unknown>;

      // Assert
      expect(sent).toEqual({
        job: 'example',
        batchSize: '10%',
        onError: 'fail',
        yes: true,
        waitHealthy: true,
        windowDuration: '2h0m0s',
        trigger: 'schedule',
        scheduleName: 'weekly-example',
        scheduledTime: '<aws.scheduler.scheduled-time>',
      });
    });

    it("uses a role that Scheduler assumes for the schedule's group (the ARN it sends) and that may only start this state machine", () => {
      // Arrange
      const role = new Capture();
      template.hasResourceProperties('AWS::Scheduler::Schedule', {
        Target: Match.objectLike({ RoleArn: { 'Fn::GetAtt': [role, 'Arn'] } }),
      });
      const roles = template.findResources('AWS::IAM::Role');
      const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
        JSON.stringify(p).includes(`"${role.asString()}"`),
      );

      // Act
      const trust = roles[role.asString()]?.['Properties']?.['AssumeRolePolicyDocument'];
      const statements = policies.flatMap(
        (p) =>
          (p as { Properties: { PolicyDocument: { Statement: unknown[] } } }).Properties.PolicyDocument
            .Statement,
      );

      // Assert
      expect(trust).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'sts:AssumeRole',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: {
              StringEquals: {
                'aws:SourceAccount': { Ref: 'AWS::AccountId' },
                // The stack's own group (`default` is shared by every stack of the account).
                'aws:SourceArn': { 'Fn::GetAtt': [expect.stringMatching(/^NomadRestartSchedules/), 'Arn'] },
              },
            },
          },
        ],
      });
      expect(statements).toEqual([
        { Effect: 'Allow', Action: 'states:StartExecution', Resource: stateMachineRef() },
        // Scheduler sends a firing it gave up on to the dead-letter queue with this role.
        {
          Effect: 'Allow',
          Action: 'sqs:SendMessage',
          Resource: queueArn(expect.stringMatching(/^WeeklyExampleDeadLettersQueue/)),
        },
      ]);
    });

    it('retries a failed start until its 2-hour window is over, then puts the firing in a watched dead-letter queue', () => {
      // Act
      const target = Object.values(template.findResources('AWS::Scheduler::Schedule'))[0]?.['Properties'][
        'Target'
      ];

      // Assert
      expect(target['RetryPolicy']).toEqual({ MaximumEventAgeInSeconds: 7200, MaximumRetryAttempts: 185 });
      expectWatchedDeadLetterQueue(template, queueIdOf(target['DeadLetterConfig']['Arn']));
    });

    it('leaves cdk-nag AwsSolutions nothing to report', () => {
      // Act
      const report = awsSolutionsFindings(app);

      // Assert
      expect(report).toEqual({ findings: [], success: true });
    });
  });

  describe('the workflow it starts', () => {
    it("describes the window and schedule fields in the stack's InputJsonSchema output", () => {
      // Arrange
      const outputs = template.findOutputs('InputJsonSchema');

      // Act
      const schema = JSON.parse(String(outputs['InputJsonSchema']?.['Value'])) as {
        properties: Record<string, { description?: string }>;
      };

      // Assert
      expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining([...WINDOW_INPUT_FIELDS]));
      expect(schema.properties['windowEnd']?.description).toContain('RFC 3339');
    });

    it('lets only Plan, Check deployments and Finish use the carry-over documents of resumeNextWindow', () => {
      // Arrange
      const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Array<{
        Properties: {
          Roles: Array<{ Ref: string }>;
          PolicyDocument: { Statement: Array<{ Action: string | string[]; Resource: unknown }> };
        };
      }>;

      // Act
      const access: Record<string, string[]> = {};
      for (const policy of policies) {
        const role = policy.Properties.Roles[0]?.Ref ?? '';
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          if (!JSON.stringify(statement).includes('maintenance/*')) continue;
          const handler = /^Restart(.+?)fnRole/.exec(role)?.[1] ?? role;
          access[handler] = [...(access[handler] ?? []), ...[statement.Action].flat()].sort();
        }
      }

      // Assert
      expect(access).toEqual({
        plan: ['s3:GetObject', 's3:ListBucket'],
        checkdeployments: ['s3:GetObject', 's3:ListBucket', 's3:PutObject'],
        finish: ['s3:PutObject'],
      });
    });
  });

  describe('a schedule with a window end', () => {
    it('sends the absolute end as it was given, with no flexible window by default', () => {
      // Arrange
      const other = new Stack(new App(), 'Other', {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      const machine = sfn.StateMachine.fromStateMachineName(other, 'Restart', 'NomadRestart-Restart');

      // Act
      new NomadRestartSchedule(other, 'Once', {
        stateMachine: machine,
        scheduleName: 'one-off',
        schedule: 'at(2026-12-06T02:00:00)',
        timeZone: 'Europe/Berlin',
        input: { job: 'api', batchSize: 2, yes: true, windowEnd: '2026-12-06T04:00:00+01:00' },
      });

      // Assert
      const input = new Capture();
      Template.fromStack(other).hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: 'at(2026-12-06T02:00:00)',
        FlexibleTimeWindow: { Mode: 'OFF' },
        Target: Match.objectLike({ Input: input }),
      });
      expect(JSON.parse(input.asString())).toMatchObject({
        job: 'api',
        windowEnd: '2026-12-06T04:00:00+01:00',
        trigger: 'schedule',
      });
    });
  });

  describe('stopOnAlarms', () => {
    it("adds the alarms' ARNs to the input's own", () => {
      // Arrange
      const scope = new Stack(new App(), 'Alarmed', {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      const alarm = cloudwatch.Alarm.fromAlarmArn(
        scope,
        'Errors',
        'arn:aws:cloudwatch:eu-central-1:123456789012:alarm:web-5xx',
      );

      // Act
      const schedule = new NomadRestartSchedule(scope, 'Schedule', {
        stateMachine: sfn.StateMachine.fromStateMachineName(scope, 'M', 'NomadRestart-Restart'),
        scheduleName: 'nightly-web',
        schedule: 'cron(0 2 * * ? *)',
        input: { job: 'web', yes: true, stopOnAlarms: ['web-p99'], bakeTime: '10m' },
        stopOnAlarms: [alarm],
      });

      // Assert
      expect(schedule.executionInput).toMatchObject({
        stopOnAlarms: ['web-p99', 'arn:aws:cloudwatch:eu-central-1:123456789012:alarm:web-5xx'],
        bakeTime: '10m',
      });
    });
  });

  describe('how late a run may start', () => {
    const retryPolicyOf = (over: Partial<NomadRestartScheduleProps>) => {
      const scope = new Stack(new App(), 'Late', {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      new NomadRestartSchedule(scope, 'Schedule', {
        stateMachine: sfn.StateMachine.fromStateMachineName(scope, 'M', 'NomadRestart-Restart'),
        scheduleName: 'nightly-web',
        schedule: 'cron(0 2 * * ? *)',
        input: { job: 'web', yes: true },
        ...over,
      });
      const [schedule] = Object.values(Template.fromStack(scope).findResources('AWS::Scheduler::Schedule'));
      return schedule?.['Properties']['Target']['RetryPolicy'];
    };

    it('gives up on a start after 15 minutes when the schedule has no window', () => {
      // Act
      const policy = retryPolicyOf({});

      // Assert: not the 24 hours that would restart a 02:00 job in the afternoon.
      expect(policy).toEqual({ MaximumEventAgeInSeconds: 900, MaximumRetryAttempts: 185 });
    });

    it("gives up when the input's window is over", () => {
      // Act
      const policy = retryPolicyOf({ input: { job: 'web', yes: true, windowDuration: '45m' } });

      // Assert
      expect(policy).toMatchObject({ MaximumEventAgeInSeconds: 2700 });
    });

    it('caps a window longer than a day at the 24 hours Scheduler allows', () => {
      // Act
      const policy = retryPolicyOf({ maintenanceWindow: Duration.hours(30) });

      // Assert
      expect(policy).toMatchObject({ MaximumEventAgeInSeconds: 86400 });
    });

    it('takes maxStartDelay over the window', () => {
      // Act
      const policy = retryPolicyOf({
        maintenanceWindow: Duration.hours(2),
        maxStartDelay: Duration.minutes(5),
      });

      // Assert
      expect(policy).toMatchObject({ MaximumEventAgeInSeconds: 300 });
    });
  });

  describe('schedule groups', () => {
    const twoSchedules = (stackName: string) => {
      const scope = new Stack(new App(), stackName, {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      const stateMachine = sfn.StateMachine.fromStateMachineName(scope, 'M', 'NomadRestart-Restart');
      for (const job of ['web', 'api']) {
        new NomadRestartSchedule(scope, `Schedule-${job}`, {
          stateMachine,
          scheduleName: `nightly-${job}`,
          schedule: 'cron(0 2 * * ? *)',
          input: { job, yes: true },
        });
      }
      return Template.fromStack(scope);
    };

    it("puts a stack's schedules in one group of its own, deleted with the stack", () => {
      // Act
      const template = twoSchedules('Team1');

      // Assert
      const groups = template.findResources('AWS::Scheduler::ScheduleGroup');
      expect(Object.keys(groups)).toHaveLength(1);
      const [groupId] = Object.keys(groups);
      expect(groups[groupId ?? '']).toMatchObject({ DeletionPolicy: 'Delete' });
      const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule'));
      const name = groups[groupId ?? '']?.['Properties']['Name'];
      expect(schedules.map((r) => [r['Properties']['GroupName'], r['DependsOn']])).toEqual([
        [name, expect.arrayContaining([groupId])],
        [name, expect.arrayContaining([groupId])],
      ]);
    });

    it('names the groups of two stacks apart, so their schedules of the same name do not collide', () => {
      // Act
      const names = ['Team1', 'Team2'].map((stackName) =>
        Object.values(twoSchedules(stackName).findResources('AWS::Scheduler::ScheduleGroup')).map(
          (g) => g['Properties']['Name'],
        ),
      );

      // Assert
      expect(names[0]?.[0]).toEqual(expect.stringMatching(/^Team1/));
      expect(names[1]?.[0]).toEqual(expect.stringMatching(/^Team2/));
    });

    it('uses the group it is given instead', () => {
      // Arrange
      const scope = new Stack(new App(), 'Given', {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      const group = scheduler.ScheduleGroup.fromScheduleGroupName(scope, 'Group', 'maintenance');

      // Act
      new NomadRestartSchedule(scope, 'Schedule', {
        stateMachine: sfn.StateMachine.fromStateMachineName(scope, 'M', 'NomadRestart-Restart'),
        scheduleName: 'nightly-web',
        schedule: 'cron(0 2 * * ? *)',
        input: { job: 'web', yes: true },
        scheduleGroup: group,
      });

      // Assert
      const template = Template.fromStack(scope);
      template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 0);
      template.hasResourceProperties('AWS::Scheduler::Schedule', { GroupName: 'maintenance' });
    });
  });

  describe('alarmTopic', () => {
    it("sends the dead-letter queue's alarm, and its all-clear, to the topic", () => {
      // Arrange
      const scope = new Stack(new App(), 'Alarmed', {
        env: { account: '123456789012', region: 'eu-central-1' },
      });
      const topicArn = 'arn:aws:sns:eu-central-1:123456789012:ops-alarms';

      // Act
      new NomadRestartSchedule(scope, 'Schedule', {
        stateMachine: sfn.StateMachine.fromStateMachineName(scope, 'M', 'NomadRestart-Restart'),
        scheduleName: 'nightly-web',
        schedule: 'cron(0 2 * * ? *)',
        input: { job: 'web', yes: true },
        alarmTopic: sns.Topic.fromTopicArn(scope, 'Ops', topicArn),
      });

      // Assert
      Template.fromStack(scope).hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        AlarmActions: [topicArn],
        OKActions: [topicArn],
      });
    });
  });

  describe('bad values', () => {
    /** One bad value (`over` the valid props below) and the reason given after the schedule's name. */
    const refused = (name: string, over: Partial<NomadRestartScheduleProps>, reason: string) => ({
      name,
      over,
      expectedErr: `Schedule "weekly-web": ${reason}`,
    });
    const base: NomadRestartScheduleProps = {
      stateMachine: sfn.StateMachine.fromStateMachineName(new Stack(), 'M', 'NomadRestart-Restart'),
      scheduleName: 'weekly-web',
      schedule: 'cron(0 3 ? * SUN *)',
      timeZone: 'Europe/Berlin',
      input: { job: 'web', yes: true },
    };

    it.each([
      refused(
        'a cron with five fields',
        { schedule: 'cron(0 3 * * SUN)' },
        'invalid schedule "cron(0 3 * * SUN)": Expected 6 values, but got 5.',
      ),
      refused(
        'a cron with both day fields set',
        { schedule: 'cron(0 3 * * SUN *)' },
        'invalid schedule "cron(0 3 * * SUN *)": Cannot specify both daysOfMonth and daysOfWeek field when mustHaveBlankDayField option is enabled.',
      ),
      refused(
        'a rate with a plural unit for 1',
        { schedule: 'rate(1 days)' },
        'invalid schedule "rate(1 days)": the unit must be singular for 1',
      ),
      refused(
        'something that is no expression',
        { schedule: 'every sunday' },
        'invalid schedule "every sunday": expected cron(minutes hours day-of-month month day-of-week year), rate(value unit) or at(yyyy-mm-ddThh:mm:ss)',
      ),
      refused(
        'an unknown time zone',
        { timeZone: 'Europe/Berlim' },
        'unknown time zone "Europe/Berlim": expected an IANA name such as "Europe/Berlin"',
      ),
      refused(
        'a restart input Nomad refuses',
        { input: { job: 'web', batchWait: 'soon' } },
        'Invalid -batch-wait value "soon": time: invalid duration "soon"',
      ),
      refused(
        'an unknown input field',
        { input: { job: 'web', batch_size: 2 } as unknown as NomadRestartScheduleProps['input'] },
        'Unknown input field "batch_size": allowed fields are',
      ),
      refused(
        'a dry run',
        { input: { job: 'web', dryRun: true } },
        'Invalid input field "dryRun": got true, expected false',
      ),
      refused(
        'a window given twice',
        { input: { job: 'web', windowDuration: '1h' }, maintenanceWindow: Duration.hours(2) },
        "give the window once: maintenanceWindow or the input's windowDuration",
      ),
      refused(
        'a maxStartDelay under a minute',
        { maxStartDelay: Duration.seconds(30) },
        'maxStartDelay must be from 1 minute to 24 hours, got 30 seconds',
      ),
      refused(
        'a flexible window over a day',
        { flexibleWindow: Duration.hours(25) },
        'flexibleWindow must be from 1 minute to 24 hours, got 1 day 1 hour',
      ),
      {
        name: 'a bake with nothing to watch',
        over: { input: { job: 'web', yes: true, bakeTime: '10m' } },
        expectedErr:
          'The -bake-time option can only be used with -stop-on-alarm or -wait-healthy: there is nothing to watch',
      },
      {
        name: 'a name Scheduler refuses',
        over: { scheduleName: 'weekly web' },
        expectedErr: 'Schedule "weekly web": the name must be 1 to 64 letters, digits, "-", "_" or "."',
      },
    ])('refuses $name at synth, naming the schedule', ({ over, expectedErr }) => {
      // Arrange
      const scope = new Stack(new App(), 'Bad');

      // Act
      const act = () => new NomadRestartSchedule(scope, 'Schedule', { ...base, ...over });

      // Assert
      expect(act).toThrow(expectedErr);
    });
  });
});
