/**
 * Props the workflow's budgets cannot honour are refused at synth, naming the prop, the value
 * received and the limit (#28): more batches per execution than one execution's history budget
 * holds, a question longer than a Standard execution can wait, and, while executions hold the
 * job's lock in Nomad, a question longer than that lock lives without a renewal.
 */
import { Duration } from 'aws-cdk-lib';
import { MAX_APPROVAL_TIMEOUT_SECONDS } from '../../lib/approvals/question-life';
import { MAX_BATCHES_PER_EXECUTION } from '../../lib/workflow/history-budget';
import { synthesizeStack } from '../aws-limits/helpers/synthesized-stack';

describe('NomadRestartWorkflow budgets', () => {
  it.each([
    {
      name: 'batchesPerExecution past the history budget',
      props: { batchesPerExecution: 1000 },
      expectedErr:
        "batchesPerExecution must be an integer from 1 to 869 (the lightest batch writes 23 history events; one execution's budget is 20000), got 1000",
    },
    {
      name: 'approvalTimeout longer than an execution lives',
      props: { approvalTimeout: Duration.days(400), variablesLock: 'off' as const },
      expectedErr:
        "approvalTimeout must be from 1 minute to 365 days (a Standard execution's longest life), got 400 days",
    },
    {
      name: 'approvalTimeout longer than the job’s lock in Nomad lives between renewals',
      props: { approvalTimeout: Duration.hours(24) },
      expectedErr:
        'approvalTimeout must be at most 23 hours while executions hold the job\'s lock in Nomad (its TTL is 24h, renewed just before a question), got 1 day; set variablesLock to "off" for longer questions',
    },
    {
      name: 'approvalTimeout under a minute',
      props: { approvalTimeout: Duration.seconds(30) },
      expectedErr:
        "approvalTimeout must be from 1 minute to 365 days (a Standard execution's longest life), got 30 seconds",
    },
  ])('refuses $name', ({ props, expectedErr }) => {
    // Act
    const synth = () => synthesizeStack(props);

    // Assert
    expect(synth).toThrow(expectedErr);
  });

  it('accepts the limits themselves', () => {
    // Act
    const withoutSharedLock = () =>
      synthesizeStack({
        batchesPerExecution: MAX_BATCHES_PER_EXECUTION,
        approvalTimeout: Duration.seconds(MAX_APPROVAL_TIMEOUT_SECONDS),
        variablesLock: 'off',
      });
    const withSharedLock = () => synthesizeStack({ approvalTimeout: Duration.hours(23) });

    // Assert
    expect(withoutSharedLock).not.toThrow();
    expect(withSharedLock).not.toThrow();
  });
});
