/**
 * The task-token answer path, proved on the real deployment: a deployment check execution
 * (`{"deploymentCheck": true}`, `lib/workflow/deployment-check.ts`) parks one question through the
 * deployed ask function, this identity answers it with `SendTaskSuccess` as `nomad-restart approve`
 * does, and the execution ends with the answer. IAM decides `SendTaskSuccess` on what the task
 * token names, which no local evaluator sees: only a real answer tells.
 */
import { randomUUID } from 'node:crypto';
import { goQuote } from '../../../go/quote';
import {
  DEPLOYMENT_CHECK_FIELD,
  DEPLOYMENT_CHECK_REACH_FIELD,
  type ReachTarget,
} from '../../../workflow/deployment-check';
import { AwsCallError } from '../errors';
import type { SfnCalls } from '../sfn-calls';
import type { StateMachineArn } from '../state-machine-arn';
import { type CheckExecutionState, readCheckExecution } from './check-history';
import { type CheckResult, failed, passed } from './check-result';
import { reachResults } from './nomad-reach';

/** The Service Authorization Reference page that says which resources each Step Functions action takes. */
export const SFN_ACTIONS_DOC =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html';

/** What {@link checkAnswerPath} needs. */
export interface AnswerPathRequest {
  readonly sfn: SfnCalls;
  readonly stateMachine: StateMachineArn;
  /** The job the execution reads from inside the deployment before its question (`-job`). */
  readonly reach?: ReachTarget;
  /** Who answers, recorded with the answer (the operator's name). */
  readonly answeredBy: string;
  /** @default `check-<random UUID>` */
  readonly executionName?: string;
  /** Between two reads of the execution's history. @default 2000 */
  readonly pollMs?: number;
  /** How long the question may take to be parked, and the answer to end the execution. @default 120000 */
  readonly waitMs?: number;
  /** @default real timers */
  readonly sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads the history until `done` says so, or `waitMs` passes (then the last read). */
async function until(
  request: AnswerPathRequest,
  executionArn: string,
  done: (state: CheckExecutionState) => boolean,
): Promise<CheckExecutionState> {
  const sleep = request.sleep ?? realSleep;
  const deadline = Date.now() + (request.waitMs ?? 120_000);
  for (;;) {
    const state = await readCheckExecution(request.sfn, executionArn);
    if (done(state) || Date.now() >= deadline) return state;
    await sleep(request.pollMs ?? 2000);
  }
}

const endText = (end: NonNullable<CheckExecutionState['end']>) =>
  `it ended ${end.status}${end.error === '' ? '' : ` with ${end.error}`}${end.cause === '' ? '' : `: ${end.cause}`}`;

/** Stops a check that cannot end by itself (its question would wait for its timeout). */
async function stopQuietly(sfn: SfnCalls, executionArn: string): Promise<string> {
  try {
    await sfn.stopExecution(
      executionArn,
      'DeploymentCheckStopped',
      'nomad-restart check gave up on its question',
    );
    return 'the check execution was stopped';
  } catch (error) {
    if (!(error instanceof AwsCallError)) throw error;
    return `the check execution could not be stopped (${error.message}); its question ends at its timeout`;
  }
}

/** Starts a check execution, answers its question from this identity, and sees it end. */
export async function checkAnswerPath(request: AnswerPathRequest): Promise<CheckResult[]> {
  const { sfn, stateMachine } = request;
  const name = request.executionName ?? `check-${randomUUID()}`;
  const startWhat = `a deployment check execution starts on ${goQuote(stateMachine.arn)}`;
  let executionArn: string;
  try {
    const input = {
      [DEPLOYMENT_CHECK_FIELD]: true,
      ...(request.reach === undefined ? {} : { [DEPLOYMENT_CHECK_REACH_FIELD]: request.reach }),
    };
    executionArn = await sfn.startExecution(stateMachine.arn, input, name);
  } catch (error) {
    if (!(error instanceof AwsCallError)) throw error;
    const fix = error.accessDenied
      ? `allow this identity states:StartExecution on ${stateMachine.arn}`
      : 'check the ARN (the stack output StateMachineArn) and run the check again';
    return [failed(startWhat, error.message, fix)];
  }
  const results: CheckResult[] = [passed(`${startWhat}: ${goQuote(executionArn)}`)];

  const askWhat = 'the ask function parks the check question';
  const asked = await until(request, executionArn, (s) => s.taskToken !== undefined || s.end !== undefined);
  // The read runs before the question: once the question is parked (or the execution ended) it has ended.
  if (request.reach !== undefined) results.push(...reachResults(asked.reach, request.reach));
  if (asked.taskToken === undefined) {
    const why =
      asked.end === undefined
        ? `no question was parked in ${Math.round((request.waitMs ?? 120_000) / 1000)}s; ${await stopQuietly(sfn, executionArn)}`
        : endText(asked.end);
    return [
      ...results,
      failed(
        askWhat,
        why,
        asked.end === undefined
          ? 'read the log of the ask function (behind "Ask deployment check") for its error'
          : 'deploy the stack from this version of nomad-restart (an older state machine has no deployment ' +
              'check); if it has one, read the log of the function the failed state runs',
      ),
    ];
  }
  results.push(passed(askWhat));

  const answerWhat = `this identity answers it with states:SendTaskSuccess as ${goQuote(request.answeredBy)}`;
  try {
    await sfn.sendTaskSuccess(
      asked.taskToken,
      { answer: 'yes', answeredBy: request.answeredBy },
      executionArn,
    );
  } catch (error) {
    if (!(error instanceof AwsCallError)) throw error;
    const stopped = await stopQuietly(sfn, executionArn);
    const fix = error.accessDenied
      ? 'grant states:SendTaskSuccess on Resource "*" to whoever answers (this identity, the approval ' +
        "endpoint's role): the task token, not an ARN in the request, names the execution, and AWS " +
        `may not match the state machine's ARN to it (${SFN_ACTIONS_DOC})`
      : 'run the check again once Step Functions answers';
    return [...results, failed(answerWhat, `${error.message}; ${stopped}`, fix)];
  }
  results.push(passed(answerWhat));

  const endWhat = 'the check execution ends with the answer';
  const ended = await until(request, executionArn, (s) => s.end !== undefined);
  if (ended.end?.status === 'SUCCEEDED') return [...results, passed(endWhat)];
  const why =
    ended.end === undefined
      ? `it had not ended ${Math.round((request.waitMs ?? 120_000) / 1000)}s after the answer; ${await stopQuietly(sfn, executionArn)}`
      : endText(ended.end);
  return [...results, failed(endWhat, why, `open ${executionArn} in the Step Functions console`)];
}
