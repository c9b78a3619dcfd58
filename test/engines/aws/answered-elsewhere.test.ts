/**
 * Scenario: `-engine=aws -reschedule -batch-size 1 -batch-wait ask` followed at a terminal (and
 * `attach`), while the run's questions also reach chat. When chat answers first, the pending read
 * at the terminal is withdrawn as the answer arrives (history's ask step carries it), a line says
 * who answered what, and the run goes on: nothing is sent from here, and a reply typed late for
 * the withdrawn question does not answer the next one. A question that waited behind Nomad's
 * interrupt question and was answered meanwhile is never asked; a question nobody answered in
 * time says so.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { runAttachCommand } from '../../../lib/cli/commands/attach-command';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import {
  answered,
  asking,
  batchRestarted,
  batchSettled,
  execArn,
  fakeTerminal,
  finishing,
  interruptWhileTheRunAsks,
  lines,
  planned,
  startAtTerminal,
  until,
} from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const BY_CHAT = { answer: '10s', answeredBy: 'alice (Slack U1)' };
const chatLine = '==> <ts>: Question answered "10s" by alice (Slack U1)';

/** A run that parks its proceed question after batch 1; `arn()` once it started. */
function runThatAsks(fake = new FakeStepFunctions()) {
  bindToSdkMock(sfn, fake);
  let arn = '';
  fake.onStart = (execution) => {
    arn = execution.arn;
    fake.append(arn, [...planned(), ...batchRestarted(1), ...batchSettled(1), ...asking('token-1')]);
  };
  return { fake, arn: () => arn };
}

const sentAnswers = (fake: FakeStepFunctions) =>
  fake.received('SendTaskSuccess').map((input) => JSON.parse(String(input['output'])) as unknown);

describe('a question answered elsewhere while the terminal asks it', () => {
  afterEach(() => sfn.reset());

  it('withdraws the pending read, says who answered what, and follows the run on', async () => {
    // Arrange
    const { fake, arn } = runThatAsks();
    const tty = fakeTerminal();
    const result = startAtTerminal(tty);
    await tty.waitFor(lines.proceedQuestion);

    // Act: chat answers "10s"; the run applies it and goes on.
    fake.append(arn(), [...answered(BY_CHAT), ...batchRestarted(2), ...batchSettled(2), ...finishing()]);
    const { exitCode } = await result;

    // Assert
    const out = tty.output().split('\n');
    const asked = out.indexOf(lines.proceedQuestion);
    expect(asked).toBeGreaterThan(-1);
    expect(out[asked + 1]).toBe(chatLine);
    expect(out.indexOf(lines.rescheduling(2))).toBeGreaterThan(asked + 1);
    expect(sentAnswers(fake)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('drops a reply typed for the withdrawn question, so it cannot answer the next one', async () => {
    // Arrange
    const { fake, arn } = runThatAsks();
    fake.onAnswer = () => fake.append(arn(), [...answered(), ...batchRestarted(3), ...finishing()]);
    const tty = fakeTerminal();
    const result = startAtTerminal(tty);
    await tty.waitFor(lines.proceedQuestion);
    fake.append(arn(), [...answered(BY_CHAT), ...batchRestarted(2)]);
    await tty.waitFor(chatLine);

    // Act: a late "y" for the first question, then the run asks again and the operator says "n".
    tty.type('y');
    await new Promise((resolve) => setTimeout(resolve, 50));
    fake.append(arn(), [...batchSettled(2), ...asking('token-2')]);
    await until(() => tty.output().split(lines.proceedQuestion).length === 3, 'the second question');
    tty.type('n');
    const { exitCode } = await result;

    // Assert
    expect(fake.received('SendTaskSuccess').map((i) => i['taskToken'])).toEqual(['token-2']);
    expect(sentAnswers(fake)).toEqual([{ answer: 'no', answeredBy: 'tester@laptop' }]);
    expect(exitCode).toBe(0);
  });

  it('never asks a question that waited behind the interrupt question and was answered meanwhile', async () => {
    // Arrange: Ctrl-C after batch 1's line; the run parks its question while the stop question is open.
    const { fake, tty, result, arn } = await interruptWhileTheRunAsks(sfn);

    // Act: chat answers it, then the operator declines the stop.
    fake.append(arn(), [...answered(BY_CHAT), ...batchRestarted(2)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    tty.type('n');
    await tty.waitFor(lines.rescheduling(2));
    fake.append(arn(), [...batchSettled(2), ...finishing()]);
    const { exitCode } = await result;

    // Assert
    const out = tty.output();
    expect(out).not.toContain(lines.proceedQuestion);
    expect(out.indexOf(chatLine)).toBeGreaterThan(out.indexOf(lines.replaced(1)));
    expect(out.indexOf(lines.rescheduling(2))).toBeGreaterThan(out.indexOf(chatLine));
    expect(sentAnswers(fake)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('says when nobody answered in time, and the run ends with Nomad’s default', async () => {
    // Arrange
    const { fake, arn } = runThatAsks();
    const tty = fakeTerminal();
    const result = startAtTerminal(tty);
    await tty.waitFor(lines.proceedQuestion);

    // Act
    fake.append(arn(), [
      ...answered({ Error: 'States.Timeout', Cause: 'Task timed out' }),
      ...finishing(true),
    ]);
    const { exitCode } = await result;

    // Assert
    const out = tty.output().split('\n');
    expect(out[out.indexOf(lines.proceedQuestion) + 1]).toBe(
      '==> <ts>: Nobody answered the question in time: Nomad\'s default answer, "no", applies',
    );
    expect(sentAnswers(fake)).toEqual([]);
    expect(exitCode).toBe(0);
  });

  it('shows a chat answer to a run followed with attach, too', async () => {
    // Arrange
    const fake = new FakeStepFunctions();
    bindToSdkMock(sfn, fake);
    const arn = execArn('from-the-console');
    fake.addExecution(arn, { job: 'example', batchSize: 1, batchWait: 'ask' }, [
      ...planned(),
      ...batchRestarted(1),
      ...batchSettled(1),
      ...asking('token-1'),
    ]);
    const tty = fakeTerminal();
    const exitCode = runAttachCommand(['-no-color', arn], {
      ...tty.streams,
      env: { TZ: 'UTC' },
      onInterrupt: tty.interrupts,
    });
    await tty.waitFor(lines.proceedQuestion);

    // Act
    fake.append(arn, [...answered(BY_CHAT), ...finishing()]);

    // Assert
    expect(await exitCode).toBe(0);
    const out = tty.output().split('\n');
    expect(out[out.indexOf(lines.proceedQuestion) + 1]).toBe(chatLine);
    expect(sentAnswers(fake)).toEqual([]);
  });
});
