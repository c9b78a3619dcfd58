/**
 * Refuses a redriven execution before a step touches anything (no secret read, no Nomad call):
 * the step's payload is `{ state, redriveCount }` (`lib/workflow/redrive.ts`), and the handler
 * goes on with the state alone.
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import { unwrapStepEvent } from '../../lib/workflow/redrive';

/** middy middleware: unwraps the state from a step's payload, or throws `ExecutionRedrivenError`. */
export function redriveGuardMiddleware(): MiddlewareObj<unknown, unknown, Error, Context> {
  const redriveGuardMiddlewareBefore = async (request: Request<unknown, unknown, Error, Context>) => {
    request.event = unwrapStepEvent(request.event);
  };
  return { before: redriveGuardMiddlewareBefore };
}
