/**
 * `nomad-restart`: entry point only. Subcommands are words before any flag; a job named like
 * one of them is given after `--` (`nomad-restart -- demo`).
 *
 * Only the restart command is imported up front, and from its own module, not the `lib/cli`
 * barrel: the bundle evaluates every static import at start, so each subcommand (the demo too)
 * is imported when it is the one asked for (docs/benchmarks.md, "Start-up").
 */
import { runJobRestart } from '../lib/cli/commands/run-job-restart';

async function main(argv: string[]): Promise<number> {
  const ctx = {
    // Node makes `process.stdin` on first read: a run that asks nothing never pays for it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };
  const [first, ...rest] = argv;
  if (first === 'demo') {
    const { runDemo } = await import('../lib/cli/commands/demo');
    return runDemo(ctx);
  }
  if (first === 'attach') {
    const { runAttachCommand } = await import('../lib/cli/commands/attach-command');
    return runAttachCommand(rest, ctx);
  }
  if (first === 'sim') {
    const { runSimCommand } = await import('../lib/cli/commands/sim-command');
    return runSimCommand(rest, ctx);
  }
  if (first === 'questions') {
    const { runQuestionsCommand } = await import('../lib/cli/commands/questions-command');
    return runQuestionsCommand(rest, ctx);
  }
  if (first === 'fleet') {
    const { runFleetCommand } = await import('../lib/cli/commands/run-fleet-command');
    return runFleetCommand(rest, ctx);
  }
  if (first === 'check') {
    const { runCheckCommand } = await import('../lib/cli/commands/check-command');
    return runCheckCommand(rest, ctx);
  }
  if (first === 'history') {
    const { runHistoryCommand } = await import('../lib/cli/history/history-command');
    return runHistoryCommand(rest, ctx);
  }
  if (first === 'pause' || first === 'resume' || first === 'stop') {
    const { runControlCommand } = await import('../lib/cli/commands/control-command');
    return runControlCommand(first, rest, ctx);
  }
  if (first === 'approve' || first === 'deny') {
    const { runApproveCommand, runDenyCommand } = await import('../lib/cli/commands/answer-command');
    return (first === 'approve' ? runApproveCommand : runDenyCommand)(rest, ctx);
  }
  return runJobRestart(first === '--' ? rest : argv, ctx);
}

// `nomad-restart ... | head`: a closed pipe ends the output quietly, as Nomad's does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // No stack traces for users: the message only.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
