/**
 * Scenario: `-engine=aws -reschedule -batch-size 1 -batch-wait ask` at a terminal. After the
 * first batch's "Rescheduling" line the operator presses Ctrl-C; while Nomad's interrupt
 * question is open the execution (which Step Functions cannot pause) sees the replacement run
 * and parks its proceed question. The interrupt question keeps the terminal: the operator's
 * reply answers it and nothing else. Confirmed: the replacement lines that ran meanwhile are
 * printed before `Canceling job restart process`, the proceed question is never shown, and the
 * "y" never reaches SendTaskSuccess (the parked question gets the cancel's "no"). Declined: the
 * held lines are printed, then the proceed question is asked in its own words.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import type { FakeStepFunctions } from './helpers/fake-step-functions';
import {
  answered,
  batchRestarted,
  batchSettled,
  finishing,
  interruptWhileTheRunAsks,
  lines,
  until,
} from './helpers/fixtures';

const sfn = mockClient(SFNClient);

const sentAnswers = (fake: FakeStepFunctions) =>
  fake
    .received('SendTaskSuccess')
    .map((input) => (JSON.parse(String(input['output'])) as { answer: string }).answer);

describe('the interrupt question and a run question on AWS', () => {
  afterEach(() => sfn.reset());

  it('lets a confirmed stop own the reply: the held lines print, the question is not asked, "y" is never sent', async () => {
    // Arrange
    const { fake, tty, result, arn } = await interruptWhileTheRunAsks(sfn);
    fake.onAnswer = () => fake.append(arn(), [...answered(), ...finishing(true)]);

    // Act
    tty.type('y');
    const { exitCode } = await result;

    // Assert
    const out = tty.output();
    expect(out).not.toContain('Proceed with the next batch?');
    expect(out.indexOf(lines.replaced(1))).toBeGreaterThan(out.indexOf(lines.stopQuestion));
    expect(out.indexOf(lines.canceling)).toBeGreaterThan(out.indexOf(lines.replaced(1)));
    expect(out.trimEnd().endsWith(lines.canceling)).toBe(true);
    expect(sentAnswers(fake)).toEqual(['no']);
    expect(exitCode).toBe(0);
  });

  it('asks the run question after a declined stop, in its own words, and sends its answer', async () => {
    // Arrange
    const { fake, tty, result, arn } = await interruptWhileTheRunAsks(sfn);
    fake.onAnswer = () =>
      fake.append(arn(), [
        ...answered(),
        ...batchRestarted(2),
        ...batchSettled(2),
        ...batchRestarted(3),
        ...batchSettled(3),
        ...finishing(),
      ]);

    // Act
    tty.type('n');
    await tty.waitFor(lines.proceedQuestion);
    tty.type('y');
    const { exitCode } = await result;

    // Assert
    const out = tty.output();
    const stopAt = out.indexOf(lines.stopQuestion);
    const heldAt = out.indexOf(lines.replaced(1));
    const proceedAt = out.indexOf(lines.proceedQuestion);
    expect(stopAt).toBeGreaterThan(-1);
    expect(heldAt).toBeGreaterThan(stopAt);
    expect(proceedAt).toBeGreaterThan(heldAt);
    expect(out).toContain(lines.rescheduling(3));
    expect(out).not.toContain(lines.canceling);
    expect(sentAnswers(fake)).toEqual(['yes']);
    expect(exitCode).toBe(0);
  });

  it('still asks the interrupt question on a later Ctrl-C once the first was declined', async () => {
    // Arrange
    const { fake, tty, result, arn } = await interruptWhileTheRunAsks(sfn);
    fake.onAnswer = () => fake.append(arn(), [...answered(), ...batchRestarted(2)]);
    tty.type('n');
    await tty.waitFor(lines.proceedQuestion);
    tty.type('y');
    await tty.waitFor(lines.rescheduling(2));

    // Act
    tty.interrupt();
    await until(() => tty.output().split(lines.stopQuestion).length === 3, 'a second interrupt question');
    tty.type('y');
    const { exitCode, status } = await result;

    // Assert: no lock table, so the confirmed stop stops the execution.
    expect(fake.received('StopExecution')).toEqual([
      { executionArn: arn(), error: 'Canceled', cause: 'Canceling job restart process' },
    ]);
    expect(status).toBe('ABORTED');
    expect(exitCode).toBe(0);
  });
});
