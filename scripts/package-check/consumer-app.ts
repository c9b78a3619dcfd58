// A CDK app as a user writes it against the installed package (README, "Install"): the stack,
// Slack approvals (the stack's ApprovalChannels) and a weekly restart. No type annotations: the
// package check also runs it as plain CommonJS JavaScript, its imports turned into require(),
// and checks that the README shows it from its first import on.
import { App } from 'aws-cdk-lib';
import { NomadRestartSchedule, NomadRestartStack } from 'nomad-restart';

const app = new App();
const stack = new NomadRestartStack(app, 'NomadRestart', {
  nomadAddress: 'https://nomad.example.internal:4646',
  nomadTokenSecret: { name: 'nomad-token' },
  slackApprovals: {
    botTokenSecret: { name: 'slack-bot-token' },
    signingSecret: { name: 'slack-signing-secret' },
    channelId: 'C0123456789',
    allowedUserIds: ['U0AAAAAAA'],
  },
});
new NomadRestartSchedule(stack, 'Weekly', {
  stateMachine: stack.workflow.stateMachine,
  scheduleName: 'weekly-example',
  schedule: 'cron(0 3 ? * SUN *)',
  input: { job: 'example', batchSize: '10%', yes: true },
});
app.synth();
