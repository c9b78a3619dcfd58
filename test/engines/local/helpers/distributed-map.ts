/** Fixture definitions for the local engine's Distributed Map and `.sync` tests. */
import { lambdaTask } from './asl';

/** The bucket the fixtures name: locally every bucket is the run's object store. */
export const FIXTURE_BUCKET = 'plan-bucket';

/**
 * A Distributed Map over the item list at `$.itemsKey`, limited by `$.max` and `$.tolerated`,
 * writing results under `$.prefix`, whose item processor is `processor`; a failed map run is
 * caught into `$.mapError`.
 */
export function distributedMapDefinition(
  processor: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    StartAt: 'Restart jobs',
    States: {
      'Restart jobs': {
        Type: 'Map',
        ItemReader: {
          Resource: 'arn:aws:states:::s3:getObject',
          ReaderConfig: { InputType: 'JSON' },
          Parameters: { Bucket: FIXTURE_BUCKET, 'Key.$': '$.itemsKey' },
        },
        ItemSelector: {
          'options.$': '$.options',
          'item.$': '$$.Map.Item.Value',
          'index.$': '$$.Map.Item.Index',
        },
        ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, ...processor },
        MaxConcurrencyPath: '$.max',
        ToleratedFailureCountPath: '$.tolerated',
        ResultWriter: {
          Resource: 'arn:aws:states:::s3:putObject',
          Parameters: { Bucket: FIXTURE_BUCKET, 'Prefix.$': '$.prefix' },
        },
        ResultPath: '$.mapResult',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.mapError', Next: 'Done' }],
        Next: 'Done',
        ...extra,
      },
      Done: { Type: 'Pass', End: true },
    },
  };
}

/** An item processor of one Lambda Task (`WorkFn`), its result the item's output. */
export const lambdaProcessor = {
  StartAt: 'Work',
  States: { Work: lambdaTask('WorkFn', { OutputPath: '$.Payload', End: true }) },
};

/**
 * The fleet's item processor shape: the merged input, then a `.sync:2` child of `childArn`,
 * whose failure is read back from its cause (a locked child is a success).
 */
export function syncProcessor(childArn: string, resource = 'arn:aws:states:::states:startExecution.sync:2') {
  return {
    StartAt: 'Job input',
    States: {
      'Job input': {
        Type: 'Pass',
        Parameters: {
          'input.$': 'States.JsonMerge($.options, $.item.input, false)',
          'name.$': '$.item.executionName',
        },
        Next: 'Restart job',
      },
      'Restart job': {
        Type: 'Task',
        Resource: resource,
        Parameters: { StateMachineArn: childArn, 'Name.$': '$.name', 'Input.$': '$.input' },
        ResultSelector: { 'executionArn.$': '$.ExecutionArn', 'output.$': '$.Output' },
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Read job error' }],
        End: true,
      },
      'Read job error': {
        Type: 'Pass',
        Parameters: { 'child.$': 'States.StringToJson($.error.Cause)' },
        Next: 'Job locked?',
      },
      'Job locked?': {
        Type: 'Choice',
        Choices: [{ Variable: '$.child.Error', StringEquals: 'JobLocked', Next: 'Job skipped (locked)' }],
        Default: 'Job failed',
      },
      'Job skipped (locked)': { Type: 'Succeed' },
      'Job failed': { Type: 'Fail', Error: 'JobFailed' },
    },
  };
}

/** Settles after `ms`, or rejects as soon as `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}
