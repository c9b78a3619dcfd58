// Scenario: SIGINT at a terminal on a fake terminal: Nomad's interrupt question, in Nomad's
// words whether or not the run can pause, also takes `p` or `pause` where it can (a pause request
// is recorded and the run goes on to its next safe point); where it cannot, `p` is an invalid
// answer as in Nomad.
import { PassThrough } from 'node:stream';
import {
  handleInterrupts,
  type InterruptHooks,
  PAUSE_RECORDED_NOTICE,
} from '../../../lib/cli/terminal/interrupt';
import { createTerminal } from '../../../lib/cli/terminal/terminal';
import { TerminalDesk } from '../../../lib/cli/terminal/terminal-desk';
import { createFormatter } from '../../../lib/restart/format';

/** Nomad's interrupt question as it prints it (`command/job_restart.go` `shouldExit`). */
const INDENT = ' '.repeat(31);
const QUESTION =
  '==> <ts>: Restart interrupted, no more allocations will be restarted.\n' +
  `${INDENT}Are you sure you want to stop the restart process? [y/N] `;

/** A terminal (stdin, stdout and stderr TTYs) whose output is kept, and one SIGINT to send. */
function setUp(hooks: Omit<InterruptHooks, 'asking' | 'answered'>) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const terminal = createTerminal({ stdin, stdout, stderr });
  const calls: string[] = [];
  let sigint: (() => void) | undefined;
  let answered: (confirmed: boolean) => void = () => undefined;
  const done = new Promise<boolean>((resolve) => {
    answered = resolve;
  });
  handleInterrupts(
    (handler) => {
      sigint = handler;
      return () => undefined;
    },
    new TerminalDesk(createFormatter({ verbose: false, color: false }), terminal),
    {
      ...hooks,
      asking: () => calls.push('asking'),
      answered: async (confirmed) => {
        calls.push(`answered ${confirmed}`);
        answered(confirmed);
      },
    },
  );
  return {
    calls,
    done,
    /** Sends SIGINT, then types `reply` and Enter. */
    interruptAndType: (...replies: string[]) => {
      sigint?.();
      for (const reply of replies) stdin.write(`${reply}\n`);
    },
    stdout: () => out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, '<ts>'),
    stderr: () => err,
    close: () => terminal.close(),
  };
}

describe('handleInterrupts', () => {
  it.each(['p', 'pause', 'P', ' Pause '])(
    'records a pause for %j and lets the run go on, the question in Nomad’s words',
    async (reply) => {
      // Arrange
      const calls: string[] = [];
      const t = setUp({
        pause: async () => {
          calls.push('pause');
        },
      });

      // Act
      t.interruptAndType(reply);
      const confirmed = await t.done;
      t.close();

      // Assert
      expect(confirmed).toBe(false);
      expect(calls).toEqual(['pause']);
      expect(t.calls).toEqual(['asking', 'answered false']);
      expect(t.stdout()).toBe(QUESTION);
      expect(t.stderr()).toBe(`${PAUSE_RECORDED_NOTICE}\n`);
    },
  );

  it('asks the same question, word for word, when the run cannot pause', async () => {
    // Arrange
    const t = setUp({});

    // Act
    t.interruptAndType('n');
    await t.done;
    t.close();

    // Assert
    expect(t.stdout()).toBe(QUESTION);
  });

  it('reads p as an invalid answer when the run cannot pause, as Nomad does', async () => {
    // Arrange
    const t = setUp({});

    // Act
    t.interruptAndType('p', 'y');
    const confirmed = await t.done;
    t.close();

    // Assert
    expect(confirmed).toBe(true);
    expect(t.stdout()).toBe(
      `${QUESTION}${INDENT}Invalid answer "p"\n${QUESTION}\nCanceling job restart process\n`,
    );
  });

  it('still stops the restart on y when the run can pause', async () => {
    // Arrange
    let paused = false;
    const t = setUp({
      pause: async () => {
        paused = true;
      },
    });

    // Act
    t.interruptAndType('y');
    const confirmed = await t.done;
    t.close();

    // Assert
    expect(confirmed).toBe(true);
    expect(paused).toBe(false);
  });
});
