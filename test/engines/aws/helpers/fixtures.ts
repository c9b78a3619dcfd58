/**
 * A restart as the state machine writes it into history (three allocations, one per batch,
 * `-reschedule -batch-wait ask`), the terminal a test drives (the command's own terminal over
 * TTY-like streams, with Ctrl-C on demand), and the command's AWS side wired to it exactly as
 * `runOnAws` wires it.
 */
import { PassThrough } from 'node:stream';
import { SFNClient } from '@aws-sdk/client-sfn';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { awsTerminalSession } from '../../../../lib/cli/terminal/aws-engine';
import type { InterruptSource } from '../../../../lib/cli/terminal/interrupt';
import { eventWriter } from '../../../../lib/cli/terminal/run-local';
import { createTerminal } from '../../../../lib/cli/terminal/terminal';
import { type RunRestartOnAwsRequest, runRestartOnAws } from '../../../../lib/engines/aws';
import type { ProgressEvent } from '../../../../lib/restart/events';
import { createFormatter } from '../../../../lib/restart/format';
import { validateRestartInput } from '../../../../lib/restart/input';
import type { PendingQuestion } from '../../../../lib/workflow/payloads';
import { normalise } from '../../../e2e/helpers/run-cli';
import { type EventShape, ev } from './fake-history';
import { FakeStepFunctions } from './fake-step-functions';
import { bindToSdkMock } from './sdk-binding';

export const REGION = 'eu-west-1';
/** Who runs the command in these tests (its `startedBy`, and who answers here). */
export const OPERATOR = 'tester@laptop';
export const MACHINE = `arn:aws:states:${REGION}:123456789012:stateMachine:NomadRestart-Restart`;
export const execArn = (name: string) =>
  `arn:aws:states:${REGION}:123456789012:execution:NomadRestart-Restart:${name}`;

export const options = validateRestartInput(
  { job: 'example', batchSize: 1, batchWait: 'ask', reschedule: true },
  { interactive: true },
);
const plan = { jobId: 'example', namespace: 'default', planKey: 'runs/x/plan.json' };
const T = Date.parse('2026-11-24T10:00:00Z');
const alloc = (n: number) => `a${n}a${n}a${n}a${n}-0000-4000-8000-00000000000${n}`;
const replacement = (n: number) => `b${n}b${n}b${n}b${n}-0000-4000-8000-00000000000${n}`;

export const proceed: PendingQuestion = {
  kind: 'proceed',
  prompt: 'Proceed with the next batch? [Y/n/<wait duration>]',
  summary: '',
};

/** Validate, plan and lock (the plan's line, shown once the job is locked). */
export const planned = (): EventShape[] => [
  ev.step('Validate input', []),
  ev.step('Plan restart', [], { plan }),
  ev.step('Lock job', [{ type: 'restart-started', time: T, count: 3 }], { plan }),
];

/** Batch `n` stops its allocation (its "Rescheduling" line). */
export const batchRestarted = (n: number): EventShape[] => {
  const events: ProgressEvent[] = [
    { type: 'batch-started', time: T, batchNumber: n, size: 1 },
    {
      type: 'allocation-restarting',
      time: T,
      allocationId: alloc(n),
      group: 'web',
      mode: { kind: 'reschedule' },
    },
  ];
  return [ev.step('Check deployments', [], { plan }), ev.step('Restart batch', events, { plan })];
};

/** Batch `n` sees its replacement run (two lines), then decides. */
export const batchSettled = (n: number): EventShape[] => {
  const events: ProgressEvent[] = [
    { type: 'allocation-replaced', time: T, allocationId: alloc(n), replacementId: replacement(n) },
    { type: 'allocation-status', time: T, allocationId: replacement(n), status: 'running', verbose: false },
  ];
  return [ev.step('Await batch', events, { plan }), ev.step('Decide', [], { plan })];
};

/** The proceed question parked on `token`. */
export const asking = (token: string, question: PendingQuestion = proceed): EventShape[] => [
  ev.askEntered(),
  ev.askScheduled(token, question),
  ev.askSubmitted(),
];

/** The ask step returns with `answer` (or its timeout) and the answer is applied. */
export const answered = (answer?: Parameters<typeof ev.askExited>[1]): EventShape[] => [
  ev.askExited([], answer),
  ev.step('Apply answer', [], { plan }),
];

/** Finish, release, succeed (`outcome` as the workflow reports it). */
export const finishing = (canceled = false): EventShape[] => [
  ev.step('Finish restart', [{ type: 'finished', time: T, errors: [], canceled }], { plan }),
  ev.step('Release lock', [], { plan }),
  ev.succeeded({
    outcome: canceled ? 'canceled' : 'succeeded',
    jobId: 'example',
    namespace: 'default',
    restarted: 3,
    failed: 0,
    errorText: '',
  }),
];

/** The lines the fixtures print, as Nomad prints them (timestamps normalised). */
export const lines = {
  started: '==> <ts>: Restarting 3 allocations',
  rescheduling: (n: number) => `    <ts>: Rescheduling allocation "${alloc(n).slice(0, 8)}" for group "web"`,
  replaced: (n: number) =>
    `    <ts>: Allocation "${alloc(n).slice(0, 8)}" replaced by "${replacement(n).slice(0, 8)}", waiting for "${replacement(n).slice(0, 8)}" to start running`,
  stopQuestion: 'Are you sure you want to stop the restart process? [y/N] ',
  proceedQuestion: '==> <ts>: Proceed with the next batch? [Y/n/<wait duration>] ',
  canceling: 'Canceling job restart process',
};

/** The command's terminal over TTY-like streams, with a transcript and Ctrl-C on demand. */
export function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = new PassThrough();
  let transcript = '';
  let errText = '';
  stdout.on('data', (chunk: Buffer) => {
    transcript += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    transcript += chunk.toString('utf8');
    errText += chunk.toString('utf8');
  });
  let handler: (() => void) | undefined;
  const interrupts: InterruptSource = (h) => {
    handler = h;
    return () => {
      handler = undefined;
    };
  };
  const terminal = createTerminal({ stdin, stdout, stderr });
  return {
    terminal,
    /** The streams, for a command that makes its own terminal (`runAttachCommand`). */
    streams: { stdin, stdout, stderr },
    interrupts,
    /** Ctrl-C. */
    interrupt: () => handler?.(),
    /** Types one line and Enter. */
    type: (line: string) => stdin.write(`${line}\n`),
    /** Everything printed so far, stdout and stderr in order, timestamps normalised. */
    output: () => normalise(transcript),
    stderr: () => normalise(errText),
    /** Resolves once the output contains `text`. */
    waitFor: (text: string) => until(() => normalise(transcript).includes(text), `output to contain ${text}`),
  };
}

/** Polls `check` every 5 ms; fails after 10 s, naming what it waited for. */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Starts a restart on (faked) AWS at `tty`, wired as `runOnAws` wires it, polling every 5 ms.
 * Resolves with the result once the run ends.
 */
export function startAtTerminal(
  tty: ReturnType<typeof fakeTerminal>,
  overrides: Partial<RunRestartOnAwsRequest> = {},
) {
  const formatter = createFormatter({ verbose: false, color: false, uiColor: false });
  const session = awsTerminalSession(
    eventWriter({ output: 'text' }, formatter, tty.terminal),
    formatter,
    tty.terminal,
    tty.interrupts,
  );
  return runRestartOnAws({
    options,
    stateMachineArn: MACHINE,
    clients: { sfn: new SFNClient({ region: REGION }) },
    emit: session.emit,
    ask: session.ask,
    operator: OPERATOR,
    signal: session.signal,
    printError: session.printError,
    pollIntervalMs: 5,
    env: {},
    retry: { retries: 3, minTimeoutMs: 1 },
    ...overrides,
  }).finally(() => session.close());
}

/**
 * Starts a run at a new terminal and takes it to an open interrupt question (Ctrl-C after batch
 * 1's line) with the run's proceed question parked behind it, on `token`.
 */
export async function interruptWhileTheRunAsks(sfn: AwsClientStub<SFNClient>, token = 'task-token-1') {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  let arn = '';
  fake.onStart = (execution) => {
    arn = execution.arn;
    fake.append(arn, [...planned(), ...batchRestarted(1)]);
  };
  const tty = fakeTerminal();
  const result = startAtTerminal(tty);
  await tty.waitFor(lines.rescheduling(1));
  tty.interrupt();
  await tty.waitFor(lines.stopQuestion);
  // Meanwhile in AWS: the batch settles and the run parks its question.
  fake.append(arn, [...batchSettled(1), ...asking(token)]);
  const readsBefore = fake.calls.length;
  await until(() => fake.calls.length > readsBefore, 'the follower to read the parked question');
  // Reading a question ends in handing it to the terminal; the follower then waits for its turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { fake, tty, result, arn: () => arn };
}

/**
 * A `-yes` request of {@link options} to {@link MACHINE} as {@link OPERATOR}, overridden by `over`,
 * with what it emits and the errors it prints collected.
 */
export function recordingRequest(over: Partial<RunRestartOnAwsRequest> = {}) {
  const emitted: ProgressEvent[] = [];
  const errors: string[] = [];
  const request: RunRestartOnAwsRequest = {
    options,
    stateMachineArn: MACHINE,
    clients: { sfn: new SFNClient({ region: REGION }) },
    emit: (event) => emitted.push(event),
    ask: async () => ({ kind: 'yes' }),
    operator: OPERATOR,
    printError: (message) => errors.push(message),
    env: {},
    ...over,
  };
  return { request, emitted, errors };
}
