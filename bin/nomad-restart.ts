/**
 * `nomad-restart`: entry point only. Subcommands are words before any flag; a job named like
 * one of them is given after `--` (`nomad-restart -- demo`).
 */
import { runDemo } from '../lib/cli/demo';
import { runJobRestart } from '../lib/cli/run-job-restart';

const SUBCOMMANDS_NEEDING_CHAT_OPS = new Set(['approve', 'deny']);

async function main(argv: string[]): Promise<number> {
  const ctx = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
  const [first, ...rest] = argv;
  if (first === 'demo') return runDemo(ctx);
  if (first === 'sim') {
    const { runSimCommand } = await import('../sim/cli');
    return runSimCommand(rest, ctx);
  }
  if (first !== undefined && SUBCOMMANDS_NEEDING_CHAT_OPS.has(first)) {
    process.stderr.write(
      `"nomad-restart ${first}" answers questions parked by an AWS execution; it comes with chat-ops approvals and is not available yet\n`,
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
    // No stack traces for users: the message, and the cause chain's messages.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
