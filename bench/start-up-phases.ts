/**
 * Where a run's start-up goes, and what whole runs cost beside Nomad's CLI: each command given
 * is run `--runs` times, alternated run by run (ABAB: a loaded machine weighs on each alike),
 * after `--warm-up` runs of each that fill the command's compiled-code cache. Prints each
 * command's median CPU (user + sys of the child, timed-run.ts) and wall time; with
 * `--phases`, a `node` command is preloaded with start-up-marks.cjs and its median phases
 * (CPU and wall ms since the process started) are printed too. Output goes to /dev/null.
 *
 *   npx tsx bench/start-up-phases.ts [--runs 15] [--warm-up 3] [--phases] -- <command...> [-- <command...>]
 *
 * e.g. the installed package (bench/installed-package.ts installs one) beside Nomad's CLI:
 *   npx tsx bench/start-up-phases.ts --phases -- node <dir>/node_modules/nomad-restart/bin/nomad-restart.js -yes no-such-job \
 *     -- nomad job restart -yes no-such-job
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './start-to-exit-rows';
import { timedRun } from './timed-run';

const MARKS_PRELOAD = join(dirname(fileURLToPath(import.meta.url)), 'start-up-marks.cjs');

interface Options {
  readonly runs: number;
  readonly warmUp: number;
  readonly phases: boolean;
  readonly commands: readonly (readonly string[])[];
}

function parseOptions(argv: readonly string[]): Options {
  const split = argv.indexOf('--');
  const flags = split === -1 ? argv : argv.slice(0, split);
  const number = (name: string, fallback: number) => {
    const at = flags.indexOf(name);
    return at === -1 ? fallback : Number(flags[at + 1]);
  };
  const commands: string[][] = [];
  for (const word of split === -1 ? [] : argv.slice(split)) {
    if (word === '--') commands.push([]);
    else commands.at(-1)?.push(word);
  }
  if (commands.length === 0 || commands.some((command) => command.length === 0))
    throw new Error(
      'usage: start-up-phases.ts [--runs N] [--warm-up N] [--phases] -- <command...> [-- <command...>]',
    );
  return {
    runs: number('--runs', 15),
    warmUp: number('--warm-up', 3),
    phases: flags.includes('--phases'),
    commands,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), 'start-up-phases-'));
  const marksFile = (index: number) => join(scratch, `${index}.jsonl`);
  const envFor = (command: readonly string[], index: number, measured: boolean): Record<string, string> =>
    options.phases && command[0] === 'node'
      ? {
          NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} -r ${MARKS_PRELOAD}`.trim(),
          START_UP_MARKS: measured ? marksFile(index) : join(scratch, 'warm-up.jsonl'),
        }
      : {};
  const runOnce = (command: readonly string[], env: Record<string, string>) => {
    const [file = '', ...args] = command;
    return timedRun(file, args, env);
  };
  const results = options.commands.map(() => ({
    cpu: [] as number[],
    wall: [] as number[],
    codes: new Set<number>(),
  }));
  const load = loadavg()[0] ?? 0;
  try {
    for (let round = 0; round < options.warmUp; round++)
      for (const [index, command] of options.commands.entries())
        await runOnce(command, envFor(command, index, false));
    for (let round = 0; round < options.runs; round++) {
      const order = options.commands.map((_, index) => index);
      // ABAB, then BABA: neither command always runs right after the other.
      if (round % 2 === 1) order.reverse();
      for (const index of order) {
        const command = options.commands[index] ?? [];
        const run = await runOnce(command, envFor(command, index, true));
        results[index]?.cpu.push(run.cpuMs);
        results[index]?.wall.push(run.wallMs);
        results[index]?.codes.add(run.code);
      }
    }
    process.stdout.write(
      `${options.runs} runs each, paired; load average ${load.toFixed(2)} -> ${(loadavg()[0] ?? 0).toFixed(2)}\n`,
    );
    options.commands.forEach((command, index) => {
      const result = results[index];
      if (result === undefined) return;
      process.stdout.write(
        `\n${command.join(' ')}\n  median CPU ${median(result.cpu).toFixed(1)} ms, wall ${median(result.wall).toFixed(1)} ms, exit ${[...result.codes].join('/')}\n`,
      );
      if (options.phases && command[0] === 'node') printPhases(marksFile(index));
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Each phase's median time since the process started, and what it added to the one before. */
function printPhases(file: string): void {
  const runs = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as [string, number, number][]);
  const names = [...new Set(runs.flatMap((marks) => marks.map(([name]) => name)))];
  let before = { wall: 0, cpu: 0 };
  for (const name of names) {
    const seen = runs.flatMap((marks) => marks.filter(([n]) => n === name));
    const wall = median(seen.map(([, ms]) => ms));
    const cpu = median(seen.map(([, , ms]) => ms));
    process.stdout.write(
      `  ${name.padEnd(34)} CPU ${cpu.toFixed(1).padStart(6)} (+${(cpu - before.cpu).toFixed(1).padStart(5)})  wall ${wall.toFixed(1).padStart(6)} (+${(wall - before.wall).toFixed(1).padStart(5)})\n`,
    );
    before = { wall, cpu };
  }
}

await main();
