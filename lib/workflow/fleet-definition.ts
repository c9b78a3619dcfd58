/**
 * The fleet graph: plan the fleet, restart its jobs as child executions of the one-job state
 * machine under a Distributed Map, summarize. One loop per level: the fleet's loop is the Map,
 * each job's loop stays the one-job state machine's batch loop.
 */
import { Annotations } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FleetOutcome } from '../fleet/summary';
import { WORKFLOW_ERROR_NAMES } from './errors';
import { FleetItemReader, FleetResultWriter } from './fleet-plan-store';
import {
  FleetFailStates,
  FleetFlowStates,
  type FleetHandlerId,
  type FleetState,
  FleetTaskStates,
} from './fleet-state-names';
import { failWithMessage } from './private/fail-with-message';
import { fleetJobProcessor } from './private/fleet-job-processor';
import { lambdaStep } from './private/lambda-step';
import { ERROR_RESULT_PATH } from './private/retry-catch';

export { JOB_FAILED_ERROR, READ_LOCK_HOLDER } from './private/fleet-job-processor';

/** What {@link fleetDefinition} needs. */
export interface FleetDefinitionProps {
  /** The Lambda function serving each of the fleet's handlers. */
  readonly functions: Readonly<Record<FleetHandlerId, lambda.Function>>;
  /** The one-job state machine each job is restarted by. */
  readonly restartStateMachine: sfn.IStateMachine;
  /** The plan bucket: "Plan fleet" writes the item list there, the Map writes its results there. */
  readonly planBucket: s3.Bucket;
}

/** The fleet's own states that no other part names (the contract's are in `fleet-state-names.ts`). */
export const FleetInternalStates = {
  readInputError: 'Read fleet input error',
  stepErrorReadable: 'Step error readable?',
  readStepError: 'Read step error',
  nameStepError: 'Name step error',
  finishedWithErrors: 'Fleet finished with errors?',
} as const;

/** The summary's outcome that ends the run failed (`FleetRestartFinishedWithErrors`). */
export const FLEET_FINISHED_WITH_ERRORS = 'finished-with-errors' satisfies FleetOutcome;

/** Paths into {@link FleetState}, checked by the compiler against the contract's field names. */
const at = {
  jobs: '$.plan.jobs',
  itemsKey: '$.plan.itemsKey',
  resultsPrefix: '$.plan.resultsPrefix',
  maxJobs: '$.budget.maxJobs',
  maxFailedJobs: '$.budget.maxFailedJobs',
  jobOptions: '$.jobOptions',
  dryRun: '$.dryRun',
  mapResult: '$.mapResult',
  mapError: '$.mapError',
} as const satisfies Record<string, `$.${keyof FleetState}${string}`>;

/**
 * The fleet state machine: "Plan fleet" → "Jobs to restart?" → the Distributed Map "Restart
 * jobs" (items from the plan store, `MaxConcurrency` = `maxJobs`, `ToleratedFailureCount` =
 * `maxFailedJobs`, results to the plan store) → "Summarize fleet" → succeed with the summary, or
 * fail `FleetRestartFinishedWithErrors` (outcome `finished-with-errors`) with its text as the
 * cause. A Map Run that failed (more failed jobs than tolerated:
 * `States.ExceedToleratedFailureThreshold`) is summarized too, from
 * `$.mapError` and the results it wrote. The parent's history holds no per-job event: each job
 * is a child of the Map Run, with a history of its own.
 */
export function fleetDefinition(scope: Construct, props: FleetDefinitionProps): sfn.IChainable {
  // The states under a scope of their own, where the non-deprecated ResultWriterV2 is switched on
  // (CDK renders the deprecated `resultWriter` unless this flag is set; `setContext` must come
  // before any child is added, which a fresh scope guarantees).
  const states = new Construct(scope, 'FleetDefinition');
  states.node.setContext('@aws-cdk/aws-stepfunctions:useDistributedMapResultWriterV2', true);
  const f = props.functions;

  const stepFailed = stepFailedFunnel(states);
  const summarize = lambdaStep(states, FleetTaskStates.summarizeFleet, {
    fn: f['summarize-fleet'],
    onError: stepFailed,
    resultPath: '$.summary',
  }).next(
    new sfn.Choice(states, FleetInternalStates.finishedWithErrors)
      .when(
        sfn.Condition.stringEquals('$.summary.outcome', FLEET_FINISHED_WITH_ERRORS),
        new sfn.Fail(states, FleetFailStates.fleetFinishedWithErrors, {
          error: FleetFailStates.fleetFinishedWithErrors,
          causePath: '$.summary.text',
        }),
      )
      .otherwise(new sfn.Succeed(states, FleetFlowStates.fleetFinished, { outputPath: '$.summary' })),
  );

  const restartJobs = new sfn.DistributedMap(states, FleetFlowStates.restartJobs, {
    itemReader: new FleetItemReader(props.planBucket, sfn.JsonPath.stringAt(at.itemsKey)),
    itemSelector: {
      options: sfn.JsonPath.objectAt(at.jobOptions),
      item: sfn.JsonPath.objectAt('$$.Map.Item.Value'),
    },
    maxConcurrencyPath: sfn.JsonPath.stringAt(at.maxJobs),
    toleratedFailureCountPath: sfn.JsonPath.stringAt(at.maxFailedJobs),
    resultWriterV2: new FleetResultWriter(props.planBucket, sfn.JsonPath.stringAt(at.resultsPrefix)),
    mapExecutionType: sfn.StateMachineType.STANDARD,
    resultPath: at.mapResult,
  });
  restartJobs.itemProcessor(fleetJobProcessor(states, props.restartStateMachine), {
    mode: sfn.ProcessorMode.DISTRIBUTED,
    executionType: sfn.ProcessorType.STANDARD,
  });
  // CDK's validation requires the processor's executionType, then warns it renders
  // `mapExecutionType` instead: both say STANDARD.
  Annotations.of(restartJobs).acknowledgeWarning(
    '@aws-cdk/aws-stepfunctions:propertyIgnored',
    "ProcessorConfig.executionType is required by CDK's validation and equals mapExecutionType (STANDARD)",
  );
  // Failed beyond the tolerance, or stopped: what did run is in the results, and the summary says
  // which jobs were not reached.
  restartJobs.addCatch(summarize, { errors: [sfn.Errors.ALL], resultPath: at.mapError });
  restartJobs.next(summarize);

  const planFleet = lambdaStep(states, FleetTaskStates.planFleet, {
    fn: f['plan-fleet'],
    onError: stepFailed,
    payload: sfn.TaskInput.fromObject({
      input: sfn.JsonPath.entirePayload,
      executionId: sfn.JsonPath.executionId,
      executionName: sfn.JsonPath.executionName,
      startTime: sfn.JsonPath.executionStartTime,
    }),
    // Bad input ends at once, before Nomad is asked for anything more, in Nomad's own words.
    catches: [
      {
        errors: [WORKFLOW_ERROR_NAMES.invalidInput],
        next: failWithMessage(states, FleetInternalStates.readInputError, FleetFailStates.invalidInput),
      },
    ],
  });
  return planFleet.next(
    new sfn.Choice(states, FleetFlowStates.jobsToRestart)
      .when(
        sfn.Condition.and(
          sfn.Condition.numberGreaterThan(at.jobs, 0),
          sfn.Condition.booleanEquals(at.dryRun, false),
        ),
        restartJobs,
      )
      .otherwise(summarize),
  );
}

/**
 * Where a failed step ends: `StepFailed`, with the Lambda error's message as the cause, or the
 * error's name when it has no message (a task timeout has no Lambda JSON to read).
 */
function stepFailedFunnel(scope: Construct): sfn.IChainable {
  const cause = `${ERROR_RESULT_PATH}.Cause`;
  const fail = new sfn.Fail(scope, FleetFailStates.stepFailed, {
    error: FleetFailStates.stepFailed,
    causePath: `${cause}.errorMessage`,
  });
  return new sfn.Choice(scope, FleetInternalStates.stepErrorReadable)
    .when(
      sfn.Condition.and(
        sfn.Condition.isPresent(cause),
        sfn.Condition.isString(cause),
        sfn.Condition.stringMatches(cause, '{*'),
      ),
      new sfn.Pass(scope, FleetInternalStates.readStepError, {
        parameters: { 'Cause.$': `States.StringToJson(${cause})` },
        resultPath: ERROR_RESULT_PATH,
      }).next(fail),
    )
    .otherwise(
      new sfn.Pass(scope, FleetInternalStates.nameStepError, {
        parameters: { Cause: { 'errorMessage.$': `${ERROR_RESULT_PATH}.Error` } },
        resultPath: ERROR_RESULT_PATH,
      }).next(fail),
    );
}
