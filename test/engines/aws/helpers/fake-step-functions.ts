/**
 * An in-memory Step Functions for the terminal's tests: executions with a growing history,
 * the documented semantics the command relies on (a start is idempotent for the same name and
 * input while the execution runs, `ExecutionAlreadyExists` once it has ended or for another
 * input; history newest first with `maxResults` and a `nextToken` valid only for the same page
 * size; `StopExecution` ends a running execution `ABORTED`), the calls it received, and faults
 * switched on per test (by the fake's clock: `Date.now()`, faked or real). Two transports serve
 * it: `aws-sdk-client-mock` in-process (`sdk-binding.ts`) and an AWS JSON 1.0 endpoint on
 * 127.0.0.1 for the real command in a subprocess (`sfn-endpoint.ts`).
 */
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import type { EventShape } from './fake-history';

/** An AWS error as the service names it (`__type`) and words it. */
export interface FakeAwsError {
  readonly name: string;
  readonly message: string;
  /** How the HTTP endpoint fails: an answer with this error (default), or a dropped connection. */
  readonly transport?: 'answer' | 'drop';
}

/** A Step Functions operation the fake serves. */
export type SfnOperation = 'StartExecution' | 'GetExecutionHistory' | 'StopExecution' | 'SendTaskSuccess';

/** Decides whether one call fails; `undefined` lets it through. */
export type Fault = (call: {
  readonly operation: SfnOperation;
  readonly input: Record<string, unknown>;
}) => FakeAwsError | undefined;

/** One execution of the fake. */
export interface FakeExecutionRecord {
  readonly arn: string;
  readonly name: string;
  readonly input: string;
  readonly events: HistoryEvent[];
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
}

/** A call as it was received (after its fault, if any, was decided). */
export interface ReceivedCall {
  readonly operation: SfnOperation;
  readonly input: Record<string, unknown>;
  /** The error it got, if it failed. */
  readonly failedWith: string | undefined;
  readonly at: number;
}

/** Thrown by the fake's operations: the transports turn it into the wire or SDK error. */
export class FakeSfnError extends Error {
  public constructor(public readonly fault: FakeAwsError) {
    super(fault.message);
    this.name = fault.name;
  }
}

const END_TYPES: Record<string, FakeExecutionRecord['status']> = {
  ExecutionSucceeded: 'SUCCEEDED',
  ExecutionFailed: 'FAILED',
  ExecutionAborted: 'ABORTED',
  ExecutionTimedOut: 'FAILED',
};

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The fake service. */
export class FakeStepFunctions {
  public readonly executions = new Map<string, FakeExecutionRecord>();
  public readonly calls: ReceivedCall[] = [];
  /** Switched on and off by tests. */
  public faults: Fault[] = [];
  /** Called after an execution is started (the test appends its first events). */
  public onStart: (execution: FakeExecutionRecord) => void = () => undefined;
  /** Called with each `SendTaskSuccess` (the test appends what the answer does). */
  public onAnswer: (taskToken: string, output: unknown) => void = () => undefined;
  /** Called after `StopExecution` ended a running execution (a test stops what runs it). */
  public onStop: (execution: FakeExecutionRecord) => void = () => undefined;

  /** The calls of one operation that got through. */
  public received(operation: SfnOperation): Record<string, unknown>[] {
    return this.calls
      .filter((c) => c.operation === operation && c.failedWith === undefined)
      .map((c) => c.input);
  }

  /** An execution that exists already (for `attach`), with its first events. */
  public addExecution(arn: string, input: unknown, events: EventShape[] = []): FakeExecutionRecord {
    const record: FakeExecutionRecord = {
      arn,
      name: arn.slice(arn.lastIndexOf(':') + 1),
      input: JSON.stringify(input),
      events: [],
      status: 'RUNNING',
    };
    this.executions.set(arn, record);
    this.append(arn, [{ type: 'ExecutionStarted', executionStartedEventDetails: { input: record.input } }]);
    this.append(arn, events);
    return record;
  }

  /** Appends events to an execution's history; an end event ends it. */
  public append(arn: string, shapes: readonly EventShape[]): void {
    const record = this.executions.get(arn);
    if (record === undefined) throw new Error(`no execution ${arn}`);
    for (const shape of shapes) {
      record.events.push({ ...shape, id: record.events.length + 1, timestamp: new Date() });
      const end = END_TYPES[shape.type ?? ''];
      if (end !== undefined) record.status = end;
    }
  }

  /** Serves one call. @throws FakeSfnError */
  public call(operation: SfnOperation, input: Record<string, unknown>): Record<string, unknown> {
    const fault = this.faults.map((f) => f({ operation, input })).find((f) => f !== undefined);
    const record = (failedWith: string | undefined) =>
      this.calls.push({ operation, input, failedWith, at: Date.now() });
    if (fault !== undefined && fault.transport !== 'drop') {
      record(fault.name);
      throw new FakeSfnError(fault);
    }
    let answer: Record<string, unknown>;
    try {
      answer = this.serve(operation, input);
    } catch (error) {
      record(error instanceof FakeSfnError ? error.fault.name : 'Error');
      throw error;
    }
    record(fault?.name);
    // A dropped answer: the call took effect, the caller never hears of it.
    if (fault !== undefined) throw new FakeSfnError(fault);
    return answer;
  }

  private serve(operation: SfnOperation, input: Record<string, unknown>): Record<string, unknown> {
    switch (operation) {
      case 'StartExecution':
        return this.start(str(input['stateMachineArn']), str(input['name']), str(input['input']));
      case 'GetExecutionHistory':
        return this.history(input);
      case 'StopExecution': {
        const record = this.existing(str(input['executionArn']));
        if (record.status === 'RUNNING') {
          this.append(record.arn, [
            {
              type: 'ExecutionAborted',
              executionAbortedEventDetails: { error: str(input['error']), cause: str(input['cause']) },
            },
          ]);
          this.onStop(record);
        }
        return { stopDate: new Date() };
      }
      case 'SendTaskSuccess':
        this.onAnswer(str(input['taskToken']), JSON.parse(str(input['output']) || 'null'));
        return {};
    }
  }

  private start(stateMachineArn: string, name: string, input: string): Record<string, unknown> {
    const [, , , region, account, , machine] = stateMachineArn.split(':');
    const arn = `arn:aws:states:${region}:${account}:execution:${machine}:${name}`;
    const existing = this.executions.get(arn);
    if (existing !== undefined) {
      if (existing.status === 'RUNNING' && existing.input === input)
        return { executionArn: arn, startDate: new Date() };
      throw new FakeSfnError({
        name: 'ExecutionAlreadyExists',
        message: `Execution Already Exists: '${arn}'`,
      });
    }
    const record = this.addExecution(arn, JSON.parse(input));
    this.onStart(record);
    return { executionArn: arn, startDate: new Date() };
  }

  private history(input: Record<string, unknown>): Record<string, unknown> {
    const record = this.existing(str(input['executionArn']));
    const reverse = input['reverseOrder'] === true;
    const ordered = reverse ? [...record.events].reverse() : record.events;
    const size =
      typeof input['maxResults'] === 'number' && input['maxResults'] > 0 ? input['maxResults'] : 100;
    const token = str(input['nextToken']);
    let rest = ordered;
    if (token !== '') {
      // `<last id returned>/<page size>`: a page continues after that event, however much the
      // history grew since, and only for a read with the same page size.
      const [lastId = 0, tokenSize] = token.split('/').map(Number);
      if (tokenSize !== size) throw new FakeSfnError({ name: 'InvalidToken', message: 'Invalid Token' });
      rest = ordered.filter((e) => (reverse ? (e.id ?? 0) < lastId : (e.id ?? 0) > lastId));
    }
    const events = rest.slice(0, size);
    const last = events.at(-1)?.id;
    return rest.length > size && last !== undefined ? { events, nextToken: `${last}/${size}` } : { events };
  }

  private existing(arn: string): FakeExecutionRecord {
    const record = this.executions.get(arn);
    if (record === undefined) {
      throw new FakeSfnError({
        name: 'ExecutionDoesNotExist',
        message: `Execution Does Not Exist: '${arn}'`,
      });
    }
    return record;
  }
}
