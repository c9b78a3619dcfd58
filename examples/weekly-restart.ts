/**
 * The weekly maintenance restart of docs/schedules.md, as a CDK app: `npx cdk synth --app "npx tsx
 * examples/weekly-restart.ts"`. Sundays at 03:00 Berlin time, 10% of the allocations at a time,
 * each batch healthy again before the next, stop at the first error, and no batch starts after
 * 05:00; however a run ends, an e-mail says how. test/constructs/schedule.test.ts and
 * run-notifications.test.ts synthesize it and check that docs/schedules.md and
 * docs/notifications.md show this code.
 */
import { App, Duration } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { NomadRestartSchedule } from '../lib/constructs/nomad-restart-schedule';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';
import { RunNotifications } from '../lib/constructs/run-notifications';

export const app = new App();
export const stack = new NomadRestartStack(app, 'NomadRestart', {
  nomadAddress: 'https://nomad.example.internal:4646',
  nomadTokenSecret: { name: 'nomad-token' },
});

// docs: weekly example
new NomadRestartSchedule(stack, 'WeeklyExample', {
  stateMachine: stack.workflow.stateMachine,
  scheduleName: 'weekly-example',
  schedule: 'cron(0 3 ? * SUN *)', // Sundays at 03:00 ...
  timeZone: 'Europe/Berlin', // ... Berlin time, summer and winter
  flexibleWindow: Duration.minutes(5), // Scheduler may start up to 5 minutes late
  maintenanceWindow: Duration.hours(2), // from 03:00: no batch starts after 05:00
  input: { job: 'example', batchSize: '10%', onError: 'fail', yes: true, waitHealthy: true },
});
// docs: end

// docs: run notifications
new RunNotifications(stack, 'RunEnds', {
  workflow: stack.workflow,
  emailTopic: Topic.fromTopicArn(stack, 'OpsMail', 'arn:aws:sns:eu-central-1:123456789012:ops-mail'),
});
// docs: end

app.synth();
