/**
 * Scenario: a weekly restart of a whole namespace as one schedule (docs/schedules.md, "A fleet on
 * a schedule"): `NomadRestartSchedule` with a fleet input and the stack's fleet state machine,
 * synthesized: it starts the fleet state machine with the fleet input (trigger, name and scheduled
 * time added), through a role that may start that state machine only. A fleet input Nomad's rules
 * refuse, or given to the wrong state machine, fails the synth naming the schedule.
 */
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import {
  NomadRestartSchedule,
  type NomadRestartScheduleProps,
} from '../../lib/constructs/nomad-restart-schedule';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new NomadRestartStack(app, 'FleetSchedules', {
  env: { account: '123456789012', region: 'eu-west-1' },
  nomadAddress: 'https://nomad.internal:4646',
});
new NomadRestartSchedule(stack, 'WeeklyPayments', {
  stateMachine: stack.fleet.stateMachine,
  scheduleName: 'weekly-payments',
  schedule: 'cron(0 3 ? * SUN *)',
  timeZone: 'Europe/Berlin',
  maintenanceWindow: Duration.hours(2),
  input: { namespace: 'payments', maxJobs: 3, maxFailedJobs: 1, batchSize: '25%', yes: true },
});
const template = Template.fromStack(stack);
const fleetRef = () => ({
  Ref: Object.keys(template.findResources('AWS::StepFunctions::StateMachine')).find((id) =>
    id.startsWith('FleetStateMachine'),
  ),
});

describe('NomadRestartSchedule with a fleet input', () => {
  it('starts the fleet state machine with the fleet input, the window, the trigger and the scheduled time', () => {
    // Arrange
    const input = new Capture();

    // Act
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: 'weekly-payments',
      Description: 'nomad-restart fleet (cron(0 3 ? * SUN *) Europe/Berlin)',
      Target: Match.objectLike({ Arn: fleetRef(), Input: input }),
    });

    // Assert
    expect(JSON.parse(input.asString())).toEqual({
      namespace: 'payments',
      maxJobs: 3,
      maxFailedJobs: 1,
      batchSize: '25%',
      yes: true,
      windowDuration: '2h0m0s',
      trigger: 'schedule',
      scheduleName: 'weekly-payments',
      scheduledTime: '<aws.scheduler.scheduled-time>',
    });
  });

  it('uses a role that may start the fleet state machine and nothing else', () => {
    // Arrange
    const target = new Capture();
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Target: Match.objectLike({ RoleArn: target }),
    });
    const roleId = (target.asObject() as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];

    // Act
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p).includes(`"Ref":"${roleId}"`))
      .flatMap(
        (p) =>
          (p as { Properties: { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } } })
            .Properties.PolicyDocument.Statement,
      )
      .filter((st) => JSON.stringify(st.Action).includes('states:'));

    // Assert
    expect(statements).toEqual([
      expect.objectContaining({ Action: 'states:StartExecution', Resource: fleetRef() }),
    ]);
  });

  describe('bad values', () => {
    const base = (scope: Stack): NomadRestartScheduleProps => ({
      stateMachine: new NomadRestartStack(scope.node.root as App, `${scope.node.id}Stack`, {
        nomadAddress: 'https://nomad.internal:4646',
      }).fleet.stateMachine,
      scheduleName: 'weekly-fleet',
      schedule: 'cron(0 3 ? * SUN *)',
      input: { namespace: 'payments', yes: true },
    });

    it.each([
      {
        name: 'a fleet without a selector',
        over: { input: { maxJobs: 2, yes: true } },
        expectedErr: 'Schedule "weekly-fleet": A fleet needs at least one selector',
      },
      {
        name: 'a maxJobs of 0',
        over: { input: { namespace: 'payments', maxJobs: 0 } },
        expectedErr: 'Schedule "weekly-fleet": Invalid -max-jobs value',
      },
      {
        name: 'a fleet with tasks',
        over: {
          input: { namespace: 'payments', tasks: ['web'] } as unknown as NomadRestartScheduleProps['input'],
        },
        expectedErr: 'Schedule "weekly-fleet": Invalid input field "tasks": got ["web"], expected nothing',
      },
    ])('refuses $name at synth, naming the schedule', ({ over, expectedErr }) => {
      // Arrange
      const scope = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Bad');

      // Act
      const act = () => new NomadRestartSchedule(scope, 'Schedule', { ...base(scope), ...over });

      // Assert
      expect(act).toThrow(expectedErr);
    });

    it('refuses a fleet input for the one-job state machine, and a job’s input for the fleet’s', () => {
      // Arrange
      const scope = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Wrong');
      const stackOf = new NomadRestartStack(scope.node.root as App, 'WrongStack', {
        nomadAddress: 'https://nomad.internal:4646',
      });
      const props = (over: Pick<NomadRestartScheduleProps, 'stateMachine' | 'input'>) => ({
        scheduleName: 'weekly-fleet',
        schedule: 'cron(0 3 ? * SUN *)',
        ...over,
      });

      // Act
      const fleetToJob = () =>
        new NomadRestartSchedule(
          scope,
          'A',
          props({ stateMachine: stackOf.workflow.stateMachine, input: { namespace: 'payments' } }),
        );
      const jobToFleet = () =>
        new NomadRestartSchedule(
          scope,
          'B',
          props({ stateMachine: stackOf.fleet.stateMachine, input: { job: 'web' } }),
        );

      // Assert
      expect(fleetToJob).toThrow(
        'Schedule "weekly-fleet": the input has no "job", so it is a fleet input: give it the fleet state machine',
      );
      expect(jobToFleet).toThrow(
        'Schedule "weekly-fleet": the input names a "job": give it the one-job state machine',
      );
    });
  });
});
