/**
 * `nomad-restart`: entry point only. Subcommands are words before any flag; a job named like
 * one of them is given after `--` (`nomad-restart -- demo`).
 */
import { runDemo, runJobRestart } from '../lib/cli/index';

/** Words that answer questions parked by an AWS execution: they come with chat-ops approvals. */
const NOT_AVAILABLE_YET = new Set(['approve', 'deny']);

async function main(argv: string[]): Promise<number> {
  const ctx = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
  const [first, ...rest] = argv;
  if (first === 'demo') return runDemo(ctx);
  if (first === 'attach') {
    const { runAttachCommand } = await import('../lib/cli/attach-command');
    return runAttachCommand(rest, ctx);
  }
  if (first === 'sim') {
    const { runSimCommand } = await import('../lib/cli/sim-command');
    return runSimCommand(rest, ctx);
  }
  if (first !== undefined && NOT_AVAILABLE_YET.has(first)) {
    process.stderr.write(
      `"nomad-restart ${first}" is not available yet: it answers questions of executions started with -engine=aws, and comes with chat-ops approvals\n`,
    );
    return 1;
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
