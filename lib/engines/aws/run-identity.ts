/**
 * Which run an execution belongs to, read from the input it started with: a first execution's
 * input is the restart input (the run is named after that execution); a continued one's is
 * `{ continuation: <workflow state> }`, whose `run` names the run and the execution's number.
 * From there the name of the next execution of the chain is known before history records it.
 */
import * as z from 'zod';
import { continuationExecutionName } from '../../workflow/continuation-name';
import { executionArnOf, parseExecutionArn } from './state-machine-arn';

/** An execution's place in its run. */
export interface RunIdentity {
  /** The run's first execution: it holds the job lock, and `attach` prints from it. */
  readonly runId: string;
  /** 1 for the first execution, +1 per continue-as-new. */
  readonly executionNumber: number;
  /** The run was started with `-verbose` (its lines are rendered with the verbose ones). */
  readonly verbose: boolean;
  /** The job as the run's input names it (what its continued executions are named after). */
  readonly job: string;
}

const continuedInputSchema = z.object({
  continuation: z.object({
    run: z.object({ runId: z.string().min(1), executionNumber: z.number().int().min(1) }),
    options: z.object({ verbose: z.boolean().optional(), job: z.string().optional() }).loose().optional(),
  }),
});
const firstInputSchema = z.object({ verbose: z.boolean().optional(), job: z.string().optional() }).loose();

/** The run of the execution `executionArn` that started with `input`. */
export function runIdentityOf(executionArn: string, input: unknown): RunIdentity {
  const continued = continuedInputSchema.safeParse(input);
  if (continued.success) {
    const { run, options } = continued.data.continuation;
    return {
      runId: run.runId,
      executionNumber: run.executionNumber,
      verbose: options?.verbose === true,
      job: options?.job ?? '',
    };
  }
  const first = firstInputSchema.safeParse(input);
  return {
    runId: executionArn,
    executionNumber: 1,
    verbose: first.success && first.data.verbose === true,
    job: (first.success ? first.data.job : undefined) ?? '',
  };
}

/** The ARN the execution after `executionArn` (number `executionNumber`) of run `runId` gets. */
export function successorArnOf(
  executionArn: string,
  run: Pick<RunIdentity, 'runId' | 'executionNumber' | 'job'>,
): string {
  const execution = parseExecutionArn(executionArn);
  return executionArnOf(
    { ...execution, name: execution.stateMachineName },
    continuationExecutionName(run.runId, run.job, run.executionNumber + 1),
  );
}
