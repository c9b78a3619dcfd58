/**
 * `nomad-restart sim [-port N] [-scenario FILE] [-empty]`: serves the simulator on
 * 127.0.0.1 until SIGINT/SIGTERM. Flags are parsed like Go's `flag` package (one or two
 * dashes, `-f v` or `-f=v`). Without `-scenario` or `-empty` the demo scenario is loaded.
 */
import { SimError } from './errors';
import { loadScenarioFile } from './scenario';
import { startSimulator } from './simulator';
import type { Scenario } from './types';

export interface SimCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stops the simulator like a signal would (tests); SIGINT and SIGTERM always do. */
  signal?: AbortSignal;
}

const USAGE = `Usage: nomad-restart sim [options]

  Serve the Nomad API simulator on 127.0.0.1.

Options:

  -port=<n>         Port to listen on (default 4646; 0 picks a free port).
  -scenario=<file>  JSON scenario to load instead of the demo.
  -empty            Start with no nodes and no jobs.
`;

interface Flags {
  port: number;
  scenario?: string;
  empty: boolean;
}

function parseFlags(args: string[]): Flags | string {
  const flags: Flags = { port: 4646, empty: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const match = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
    if (!match) return `This command takes no arguments, got "${arg}"`;
    const name = match[1] ?? '';
    let value = match[2];
    if (name === 'empty') {
      if (value !== undefined && value !== 'true' && value !== 'false')
        return `invalid boolean value "${value}" for -empty`;
      flags.empty = value !== 'false';
      continue;
    }
    if (name === 'h' || name === 'help') return '';
    if (name !== 'port' && name !== 'scenario') return `flag provided but not defined: -${name}`;
    if (value === undefined) {
      value = args[++i];
      if (value === undefined) return `flag needs an argument: -${name}`;
    }
    if (name === 'port') {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535)
        return `invalid value "${value}" for flag -port: must be a port number`;
      flags.port = port;
    } else flags.scenario = value;
  }
  if (flags.empty && flags.scenario !== undefined) return 'The -empty option cannot be used with -scenario';
  return flags;
}

/** Runs the `sim` command; resolves with the exit code once stopped. */
export async function runSimCommand(args: string[], io: SimCommandIo): Promise<number> {
  const flags = parseFlags(args);
  if (typeof flags === 'string') {
    io.stderr.write(flags === '' ? USAGE : `${flags}\n\n${USAGE}`);
    return flags === '' ? 0 : 1;
  }
  let scenario: Scenario | 'demo' | 'empty' = flags.empty ? 'empty' : 'demo';
  try {
    if (flags.scenario !== undefined) scenario = loadScenarioFile(flags.scenario);
    const sim = await startSimulator({ port: flags.port, scenario });
    io.stdout.write(`Nomad simulator listening on ${sim.address}\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        io.signal?.removeEventListener('abort', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      if (io.signal?.aborted) stop();
      else io.signal?.addEventListener('abort', stop);
    });
    await sim.close();
    return 0;
  } catch (error) {
    const message = error instanceof SimError || error instanceof Error ? error.message : String(error);
    io.stderr.write(`Error starting simulator: ${message}\n`);
    return 1;
  }
}
