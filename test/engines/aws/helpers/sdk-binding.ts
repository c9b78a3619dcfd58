/**
 * Serves a {@link FakeStepFunctions} to the SDK client in-process through `aws-sdk-client-mock`,
 * with errors shaped as the SDK throws them: a service error named after its `__type` (throttling
 * marked retryable), a network failure as Node's error with its `code`.
 */
import {
  GetExecutionHistoryCommand,
  SendTaskSuccessCommand,
  type SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import {
  type FakeAwsError,
  FakeSfnError,
  type FakeStepFunctions,
  type SfnOperation,
} from './fake-step-functions';

/** The error the SDK would throw for `fault`. */
export function sdkErrorOf(fault: FakeAwsError): Error {
  if (fault.transport === 'drop' || /^E[A-Z_]+$/.test(fault.name)) {
    // Node's socket and DNS errors: `code` says what happened, `name` is plain Error.
    return Object.assign(new Error(fault.message), {
      code: fault.transport === 'drop' ? 'ECONNRESET' : fault.name,
      $metadata: {},
    });
  }
  const throttling = /Throttl/.test(fault.name);
  return Object.assign(new Error(fault.message), {
    name: fault.name,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    ...(throttling ? { $retryable: { throttling: true } } : {}),
  });
}

/** Makes every `SFNClient` in this process talk to `fake`. */
export function bindToSdkMock(stub: AwsClientStub<SFNClient>, fake: FakeStepFunctions): void {
  const serve = (operation: SfnOperation) => async (input: object) => {
    try {
      return fake.call(operation, { ...input });
    } catch (error) {
      throw error instanceof FakeSfnError ? sdkErrorOf(error.fault) : error;
    }
  };
  stub.on(StartExecutionCommand).callsFake(serve('StartExecution'));
  stub.on(GetExecutionHistoryCommand).callsFake(serve('GetExecutionHistory'));
  stub.on(StopExecutionCommand).callsFake(serve('StopExecution'));
  stub.on(SendTaskSuccessCommand).callsFake(serve('SendTaskSuccess'));
}
