/**
 * `nomad-restart sim [-port N] [-consul-port N] [-scenario FILE] [-empty]`: serves the simulator
 * (Nomad's API, and its Consul's) on 127.0.0.1 until SIGINT/SIGTERM. Flags are parsed by the command's own Go-style parser, so
 * `sim` accepts and refuses command lines as `job restart` does. Without `-scenario` or
 * `-empty` the demo scenario is loaded.
 */
import { loadScenarioFile, type Scenario, SimListenError, startSimulator } from '../../../sim/index';
import { parseCommandFlags } from './command-flags';
import { CliUsageError } from './errors';

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
  -consul-port=<n>  Port of the simulator's Consul (default: a free port, printed).
  -scenario=<file>  JSON scenario to load instead of the demo.
  -empty            Start with no nodes and no jobs.
`;

interface Flags {
  port: number;
  consulPort: number;
  scenario?: string;
  empty: boolean;
}

const DEFAULT_PORT = 4646;
/**
 * A free port, printed. Not Consul's own 8500: most machines that run Nomad run a Consul agent
 * there, and the simulator would fail to start beside it.
 */
const DEFAULT_CONSUL_PORT = 0;

/** A port flag's value, or the message naming the flag and its bad value. */
function portFlag(text: string | undefined, name: string, fallback: number): number | string {
  if (text === undefined) return fallback;
  const port = Number(text);
  return /^\d+$/.test(text) && port <= 65535
    ? port
    : `invalid value "${text}" for flag -${name}: must be a port number`;
}

/** The flags, or the message to print above the usage (`''` for `-help`). */
function parseFlags(args: string[]): Flags | string {
  try {
    const parsed = parseCommandFlags(args, {
      port: 'string',
      'consul-port': 'string',
      scenario: 'string',
      empty: 'bool',
    });
    const [extra] = parsed.args;
    if (extra !== undefined) return `This command takes no arguments, got "${extra}"`;
    const port = portFlag(parsed.strings.get('port'), 'port', DEFAULT_PORT);
    const consulPort = portFlag(parsed.strings.get('consul-port'), 'consul-port', DEFAULT_CONSUL_PORT);
    if (typeof port === 'string') return port;
    if (typeof consulPort === 'string') return consulPort;
    const scenario = parsed.strings.get('scenario');
    const empty = parsed.bools.get('empty') ?? false;
    if (empty && scenario !== undefined) return 'The -empty option cannot be used with -scenario';
    return { port, consulPort, empty, ...(scenario === undefined ? {} : { scenario }) };
  } catch (error) {
    if (error instanceof CliUsageError) return error.message;
    throw error;
  }
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
    const sim = await startSimulator({ port: flags.port, consulPort: flags.consulPort, scenario });
    io.stdout.write(`Nomad simulator listening on ${sim.address}\n`);
    io.stdout.write(`Consul simulator listening on ${sim.consul.address}\n`);
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
    io.stderr.write(`Error starting simulator: ${startFailure(error)}\n`);
    return 1;
  }
}

/** What to print after `Error starting simulator: `; a taken port names the flag that chose it. */
function startFailure(error: unknown): string {
  if (!(error instanceof SimListenError)) return error instanceof Error ? error.message : String(error);
  if (error.code !== 'EADDRINUSE') return error.message;
  return error.server === 'nomad'
    ? `${error.message}; give -port another port, or -port=0 for a free one`
    : `${error.message}; give -consul-port another port, or leave it out for a free one`;
}
