/**
 * Scenario: `-engine=aws -batch-wait ask` followed at a terminal with NOMAD_RESTART_APPROVALS_TABLE
 * set, the run's question parked in the approvals table (a DynamoDB emulator with the deployed
 * keys and indexes) and in Slack. The terminal answers through the same decision as chat: a
 * reply typed here is recorded as the question's one decision before SendTaskSuccess, so a later
 * Slack press is told who decided and sends nothing; a Slack press first is shown at the terminal
 * as it arrives and the read is withdrawn. Typed at the same moment as a press, exactly one of
 * them reaches Step Functions.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDbApprovalStore } from '../../../lib/stores';
import type { ApprovalAnswer } from '../../../lib/workflow/payloads';
import { emulatedApprovalsTable, parkedOn, pressSlackButton } from './helpers/chat-fixtures';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import {
  answered,
  asking,
  batchRestarted,
  batchSettled,
  fakeTerminal,
  finishing,
  lines,
  OPERATOR,
  planned,
  REGION,
  startAtTerminal,
  until,
} from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);

const emulated = emulatedApprovalsTable();

afterEach(() => sfn.reset());

/**
 * Starts the run at a terminal; it parks its question after batch 1, in history and in the table
 * (as the ask step does), and goes on with whatever answer Step Functions is sent.
 */
async function startAndAsk(dynamodb: DynamoDBClient = emulated.db.newClient()) {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  let arn = '';
  fake.onStart = (execution) => {
    arn = execution.arn;
    fake.append(arn, [...planned(), ...batchRestarted(1), ...batchSettled(1), ...asking('token-1')]);
  };
  fake.onAnswer = (_token, output) =>
    fake.append(arn, [
      ...answered(output as ApprovalAnswer),
      ...finishing((output as ApprovalAnswer).answer === 'no'),
    ]);
  const tty = fakeTerminal();
  const result = startAtTerminal(tty, {
    clients: { sfn: new SFNClient({ region: REGION }), dynamodb },
    approvalsTable: emulated.table,
  });
  await until(() => arn !== '', 'the execution to start');
  const question = parkedOn(arn, 'token-1', { prompt: 'Proceed with the next batch? [Y/n/<wait duration>]' });
  await emulated.store.put(question);
  await tty.waitFor(lines.proceedQuestion);
  return { fake, tty, result, approvalId: question.approvalId };
}

const sent = (fake: FakeStepFunctions) =>
  fake.received('SendTaskSuccess').map((i) => JSON.parse(String(i['output'])) as ApprovalAnswer);

describe('a terminal and chat answering one question', () => {
  it('records a reply typed here as the decision; a later Slack press is told who decided', async () => {
    // Arrange
    const { fake, tty, result, approvalId } = await startAndAsk();

    // Act
    tty.type('n');
    const { exitCode } = await result;
    const press = await pressSlackButton(emulated.store, approvalId, 'yes');

    // Assert
    expect(sent(fake)).toEqual([{ answer: 'no', answeredBy: OPERATOR }]);
    expect((await emulated.store.get(approvalId)).decision).toMatchObject({
      answer: 'no',
      answeredBy: OPERATOR,
      via: 'terminal',
      outcome: 'delivered',
    });
    expect(press.told).toEqual([
      expect.stringMatching(
        new RegExp(`^Already decided: ${OPERATOR} answered "no" at .+ UTC \\(terminal\\)\\.$`),
      ),
    ]);
    expect(tty.output()).not.toContain('Question answered');
    expect(exitCode).toBe(0);
  });

  it('shows a Slack answer at the terminal as it arrives, and sends nothing from here', async () => {
    // Arrange
    const { fake, tty, result, approvalId } = await startAndAsk();

    // Act
    const press = await pressSlackButton(emulated.store, approvalId, '10s');
    const { exitCode } = await result;

    // Assert
    expect(press.statusCode).toBe(200);
    expect(sent(fake)).toEqual([{ answer: '10s', answeredBy: 'alice (Slack U1)' }]);
    const out = tty.output().split('\n');
    expect(out[out.indexOf(lines.proceedQuestion) + 1]).toBe(
      '==> <ts>: Question answered "10s" by alice (Slack U1)',
    );
    expect(exitCode).toBe(0);
  });

  it('lets exactly one of a reply and a Slack press typed at the same moment reach Step Functions', async () => {
    // Arrange: the terminal's conditional write waits until the press has read the question too.
    let pressRead!: () => void;
    const pressHasRead = new Promise<void>((resolve) => {
      pressRead = resolve;
    });
    const terminalDb = emulated.db.newClient();
    terminalDb.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { ConditionExpression?: string };
        if (input.ConditionExpression?.includes('attribute_not_exists(decision)')) await pressHasRead;
        return next(args);
      },
      { step: 'build', name: 'waitForThePress' },
    );
    const { fake, tty, result, approvalId } = await startAndAsk(terminalDb);
    const pressStore = new DynamoDbApprovalStore(emulated.db.newClient(), emulated.table);
    const readFirst = pressStore.get.bind(pressStore);
    pressStore.get = async (id) => {
      const item = await readFirst(id);
      pressRead();
      return item;
    };

    // Act
    tty.type('n');
    const press = await pressSlackButton(pressStore, approvalId, 'yes');
    const { exitCode } = await result;

    // Assert
    const decision = (await emulated.store.get(approvalId)).decision;
    expect(sent(fake)).toEqual([{ answer: decision?.answer, answeredBy: decision?.answeredBy }]);
    if (decision?.via === 'terminal') {
      expect(press.told).toEqual([
        expect.stringMatching(/^Already decided: .+ answered "no" at .+ \(terminal\)\.$/),
      ]);
      expect(exitCode).toBe(0);
    } else {
      expect(press.told).toEqual([]);
      expect(tty.output()).toContain('==> <ts>: Question answered "yes" by alice (Slack U1)');
    }
    expect(decision?.outcome).toBe('delivered');
  });
});
