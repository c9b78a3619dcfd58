/**
 * Scenario: the rotation recipe (docs/schedules.md, "Rolling the consumers of a rotated
 * variable") synthesizes: `NomadRestartSchedule` on the stack's fleet state machine, every 15
 * minutes inside business hours in its time zone, with the recipe's fleet input (validated at
 * synth by the fleet's own rules) plus what every schedule adds. The document shows the same
 * schedule and input.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import { NomadRestartSchedule } from '../../lib/constructs/nomad-restart-schedule';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { ROTATION_RECIPE } from '../fixtures/rotation-recipe';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new NomadRestartStack(app, 'RotationRecipe', {
  env: { account: '123456789012', region: 'eu-west-1' },
  nomadAddress: 'https://nomad.internal:4646',
});
new NomadRestartSchedule(stack, 'RollSharedDb', {
  stateMachine: stack.fleet.stateMachine,
  ...ROTATION_RECIPE,
});
const template = Template.fromStack(stack);

describe('the rotation recipe', () => {
  it('synthesizes a schedule of the fleet state machine every 15 minutes in business hours, with its input', () => {
    // Arrange
    const input = new Capture();
    const fleet = Object.keys(template.findResources('AWS::StepFunctions::StateMachine')).find((id) =>
      id.startsWith('FleetStateMachine'),
    );

    // Act
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: ROTATION_RECIPE.scheduleName,
      ScheduleExpression: 'cron(0/15 8-17 ? * MON-FRI *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      Target: Match.objectLike({ Arn: { Ref: fleet }, Input: input }),
    });

    // Assert
    expect(JSON.parse(input.asString())).toEqual({
      namespace: '*',
      usesVariables: ['nomad/jobs/shared/db'],
      stale: true,
      waitHealthy: true,
      maxJobs: 2,
      yes: true,
      trigger: 'schedule',
      scheduleName: 'roll-shared-db',
      scheduledTime: '<aws.scheduler.scheduled-time>',
    });
  });

  it('is the schedule docs/schedules.md shows', () => {
    // Arrange
    const doc = readFileSync(new URL('../../docs/schedules.md', import.meta.url), 'utf8');

    // Act
    const section = doc.slice(doc.indexOf('## Rolling the consumers of a rotated variable'));

    // Assert
    expect(section).toContain(`scheduleName: '${ROTATION_RECIPE.scheduleName}',`);
    expect(section).toContain(`schedule: '${ROTATION_RECIPE.schedule}',`);
    expect(section).toContain(`timeZone: '${ROTATION_RECIPE.timeZone}',`);
    expect(section).toContain(
      "input: { namespace: '*', usesVariables: ['nomad/jobs/shared/db'], stale: true, waitHealthy: true, maxJobs: 2, yes: true },",
    );
  });
});
