/**
 * One command run, timed as the kernel accounts it: wall time, and the CPU (user + system) of the
 * child and everything it waited for. Node cannot see a child's rusage (`process.resourceUsage`
 * is the calling process's own, and `spawn` reports none), so the command runs under bash's `time`
 * keyword, which reads the child's rusage from `wait` and prints it to the millisecond (GNU time's
 * `%U %S` print hundredths, too coarse beside a `nomad` run of ~50 ms of CPU).
 */
import { spawn } from 'node:child_process';

/** What one run cost, and how it ended. */
export interface TimedRun {
  /** From fork to exit, as bash measured it around the child (bash's own start excluded). */
  readonly wallMs: number;
  /** User + system CPU of the child and its descendants. */
  readonly cpuMs: number;
  readonly code: number;
}

/**
 * `%3R %3U %3S`: real, user, system seconds with three decimals. The command's own output goes
 * to /dev/null; only the report reaches stdout.
 */
const SCRIPT = `TIMEFORMAT='%3R %3U %3S'; { time "$@" >/dev/null 2>&1 </dev/null; } 2>&1`;

/** Reads bash's `%3R %3U %3S` report; throws naming the text when it is not one. */
export function parseTimeReport(report: string): Omit<TimedRun, 'code'> {
  const fields = report.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
  const [real, user, system] = fields;
  if (fields.length !== 3 || real === undefined || user === undefined || system === undefined)
    throw new Error(`bash's time report "${report.trim()}" is not "<real> <user> <system>" seconds`);
  if (fields.some((n) => !Number.isFinite(n)))
    throw new Error(`bash's time report "${report.trim()}" holds a field that is not a number`);
  return { wallMs: real * 1000, cpuMs: (user + system) * 1000 };
}

/** Runs `command args` with `env` added to this process's environment, and times it. */
export function timedRun(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', SCRIPT, 'bash', command, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let report = '';
    child.stdout.on('data', (chunk: Buffer) => {
      report += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ ...parseTimeReport(report), code: code ?? -1 });
      } catch (error) {
        reject(error);
      }
    });
  });
}
