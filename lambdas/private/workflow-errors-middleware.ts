/**
 * Turns a handler's error into the name the state machine's Retry and Catch match on.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { isTransientNomadError } from '../../lib/nomad';
import { isTransientAwsError } from '../../lib/stores/aws-errors';
import { AwsTransientError, NomadTransientError } from '../../lib/workflow/errors';
import { logger } from './logger';

/**
 * middy middleware that shapes errors for the state machine: a transient Nomad failure is
 * re-thrown as `NomadTransientError`, a transient AWS failure (S3, DynamoDB) as
 * `AwsTransientError` (what `Retry` matches), everything else keeps its name
 * (what `Catch` routes on). It logs the error's name and message, which never hold secrets.
 */
export function workflowErrorsMiddleware(): MiddlewareObj<unknown, unknown, Error, Context> {
  const workflowErrorsMiddlewareOnError = async (
    request: Request<unknown, unknown, Error, Context>,
  ): Promise<void> => {
    const err = request.error;
    if (err === null || err === undefined) return;
    logger.error('Step failed', { errorName: err.name, errorMessage: err.message });
    if (isTransientNomadError(err)) {
      request.error = new NomadTransientError(err.message, { cause: err });
    } else if (isTransientAwsError(err)) {
      request.error = new AwsTransientError(`${err.name}: ${err.message}`, { cause: err });
    }
  };
  return { onError: workflowErrorsMiddlewareOnError };
}
