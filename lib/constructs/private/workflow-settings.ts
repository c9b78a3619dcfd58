/**
 * The workflow construct's numeric and duration props, defaulted and checked in one place so
 * that a bad value fails `cdk synth` with the prop's name and the value received.
 */
import { Duration, ValidationError } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { MAX_APPROVAL_TIMEOUT_SECONDS } from '../../approvals/question-life';
import { AWS_LONGEST_WAIT_SECONDS, AWS_SHARED_LOCK_TTL } from '../../stores/shared-lock-settings';
import {
  HISTORY_EVENT_BUDGET,
  LIGHTEST_BATCH_EVENTS,
  MAX_BATCHES_PER_EXECUTION,
} from '../../workflow/history-budget';

/** The props {@link resolveWorkflowSettings} reads; every one optional, with its default. */
export interface WorkflowSettingsProps {
  readonly batchesPerExecution?: number;
  readonly awaitSlicesPerExecution?: number;
  readonly approvalTimeout?: Duration;
  readonly batchSliceTimeout?: Duration;
  readonly planExpirationDays?: number;
  /** Whether executions hold the job's shared lock in Nomad (its TTL bounds a question). */
  readonly variablesLock?: 'on' | 'required' | 'off';
}

/** The same settings, defaulted and valid. */
export interface WorkflowSettings {
  readonly batchesPerExecution: number;
  readonly awaitSlicesPerExecution: number;
  readonly approvalTimeout: Duration;
  readonly batchSliceTimeout: Duration;
  readonly planExpirationDays: number;
}

const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

function integerIn(
  scope: Construct,
  name: string,
  value: number,
  min: number,
  max: number,
  why = '',
): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `an integer from ${min} to ${max}`;
    const code = `Invalid${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
    throw new ValidationError(lit(code), `${name} must be ${range}${why}, got ${value}`, scope);
  }
  return value;
}

/** Defaults every setting and refuses a value out of range, naming the prop. */
export function resolveWorkflowSettings(scope: Construct, props: WorkflowSettingsProps): WorkflowSettings {
  const approvalTimeout = props.approvalTimeout ?? Duration.seconds(AWS_LONGEST_WAIT_SECONDS);
  if (
    !approvalTimeout.isUnresolved() &&
    (approvalTimeout.toSeconds() < 60 || approvalTimeout.toSeconds() > MAX_APPROVAL_TIMEOUT_SECONDS)
  ) {
    throw new ValidationError(
      lit('InvalidApprovalTimeout'),
      `approvalTimeout must be from 1 minute to ${Duration.seconds(MAX_APPROVAL_TIMEOUT_SECONDS).toDays()} days (a Standard execution's longest life), got ${approvalTimeout.toHumanString()}`,
      scope,
    );
  }
  // Nothing runs during a question to renew the job's lock in Nomad: its TTL must outlast it.
  if (
    !approvalTimeout.isUnresolved() &&
    (props.variablesLock ?? 'on') !== 'off' &&
    approvalTimeout.toSeconds() > AWS_LONGEST_WAIT_SECONDS
  ) {
    throw new ValidationError(
      lit('InvalidApprovalTimeout'),
      `approvalTimeout must be at most ${AWS_LONGEST_WAIT_SECONDS / 3600} hours while executions hold the job's lock in Nomad (its TTL is ${AWS_SHARED_LOCK_TTL}, renewed just before a question), got ${approvalTimeout.toHumanString()}; set variablesLock to "off" for longer questions`,
      scope,
    );
  }
  const batchSliceTimeout = props.batchSliceTimeout ?? Duration.minutes(5);
  if (
    !batchSliceTimeout.isUnresolved() &&
    (batchSliceTimeout.toSeconds() < 60 || batchSliceTimeout.toSeconds() > 900)
  ) {
    throw new ValidationError(
      lit('InvalidBatchSliceTimeout'),
      `batchSliceTimeout must be from 1 to 15 minutes, got ${batchSliceTimeout.toHumanString()}`,
      scope,
    );
  }
  return {
    batchesPerExecution: integerIn(
      scope,
      'batchesPerExecution',
      props.batchesPerExecution ?? 200,
      1,
      MAX_BATCHES_PER_EXECUTION,
      ` (the lightest batch writes ${LIGHTEST_BATCH_EVENTS} history events; one execution's budget is ${HISTORY_EVENT_BUDGET})`,
    ),
    awaitSlicesPerExecution: integerIn(
      scope,
      'awaitSlicesPerExecution',
      props.awaitSlicesPerExecution ?? 1000,
      1,
      2000,
    ),
    approvalTimeout,
    batchSliceTimeout,
    planExpirationDays: integerIn(
      scope,
      'planExpirationDays',
      props.planExpirationDays ?? 14,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}
