/**
 * Fail states whose cause is the caught Lambda error's message, not the runtime's JSON.
 */
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { ERROR_RESULT_PATH } from './retry-catch';

/**
 * Ends in the Fail state `failName` with the caught Lambda error's message as its cause. The cause
 * of a Lambda error is the runtime's JSON with a stack trace; the console shows only its message,
 * Nomad's words.
 */
export function failWithMessage(scope: Construct, readStateId: string, failName: string): sfn.Chain {
  return new sfn.Pass(scope, readStateId, {
    parameters: { 'Cause.$': 'States.StringToJson($.error.Cause)' },
    resultPath: ERROR_RESULT_PATH,
  }).next(new sfn.Fail(scope, failName, { error: failName, causePath: '$.error.Cause.errorMessage' }));
}
