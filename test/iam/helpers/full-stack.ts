/**
 * The stack with every part the workflow can deploy switched on: Slack, webhook and e-mail
 * approvals (notifier and public endpoint), run-end notifications, the Nomad and Consul secrets, and two
 * schedules (one in the default group, one in a group of its own). IAM tests read its roles.
 */
import { App } from 'aws-cdk-lib';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { NomadRestartSchedule } from '../../../lib/constructs/nomad-restart-schedule';
import { NomadRestartStack } from '../../../lib/constructs/nomad-restart-stack';
import {
  secretArn,
  slackApprovalReferences,
  TLS_SECRET_ARN,
  TOKEN_SECRET_ARN,
} from '../../constructs/helpers/synth';
import { FULL_STACK_NAME } from './full-stack-template';
import { DEPLOYED } from './template-iam';

/**
 * Synthesizes the full stack (no bundling) and returns its template. Tests read it through
 * `fullStackTemplate` (./full-stack-template.ts), which caches it between files.
 */
export function synthesizeFullStack(): Record<string, unknown> {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new NomadRestartStack(app, FULL_STACK_NAME, {
    env: { account: DEPLOYED.account, region: DEPLOYED.region },
    nomadAddress: 'https://nomad.internal:4646',
    nomadTokenSecret: { completeArn: TOKEN_SECRET_ARN },
    nomadTlsSecret: { completeArn: TLS_SECRET_ARN },
    consulAddress: 'https://consul.internal:8501',
    consulTokenSecret: { completeArn: secretArn('consul-token') },
    slackApprovals: slackApprovalReferences(),
    webhookApprovals: {
      url: 'https://hooks.example.com/nomad',
      secret: { completeArn: secretArn('webhook') },
      keyId: 'k1',
    },
    approvalEmailTopicArn: `arn:aws:sns:${DEPLOYED.region}:${DEPLOYED.account}:approvals`,
    notifyRunEnded: true,
  });
  new NomadRestartSchedule(stack, 'Nightly', {
    stateMachine: stack.workflow.stateMachine,
    scheduleName: 'nightly',
    schedule: 'cron(0 2 * * ? *)',
    input: { job: 'web', yes: true },
  });
  new NomadRestartSchedule(stack, 'Weekly', {
    stateMachine: stack.workflow.stateMachine,
    scheduleName: 'weekly',
    schedule: 'cron(0 3 ? * SUN *)',
    scheduleGroup: new scheduler.ScheduleGroup(stack, 'Maintenance', { scheduleGroupName: 'maintenance' }),
    input: { job: 'api', yes: true },
  });
  return app.synth().getStackByName(FULL_STACK_NAME).template as Record<string, unknown>;
}
