/**
 * The handlers' single Powertools logger, with the rules of what may be logged.
 */
import { Console } from 'node:console';
import { Logger } from '@aws-lambda-powertools/logger';

/** The console methods Powertools' Logger prints with (Logger.printLog: the level's name). */
type PrintingConsole = Pick<Console, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'log'>;

/**
 * A console over `process.stdout` and `process.stderr`, as Powertools' own, made at the first
 * line: Node makes `process.stdout` on first use (3.5 to 5.7 ms of CPU), and the command's local
 * runs keep the handlers silent, so a job not found writes nothing there (docs/benchmarks.md).
 */
function consoleAtFirstLine(): PrintingConsole {
  let made: Console | undefined;
  const lines = () => {
    made ??= new Console({ stdout: process.stdout, stderr: process.stderr });
    return made;
  };
  return {
    // As Powertools patches its own: a trace is a line, without Console's stack (its `setConsole`).
    trace: (...args: unknown[]) => lines().log(...args),
    debug: (...args: unknown[]) => lines().debug(...args),
    info: (...args: unknown[]) => lines().info(...args),
    warn: (...args: unknown[]) => lines().warn(...args),
    error: (...args: unknown[]) => lines().error(...args),
    log: (...args: unknown[]) => lines().log(...args),
  };
}

/**
 * Powertools' Logger whose console is made at the first line. The Logger builds its console in
 * the private `setConsole` (@aws-lambda-powertools/logger, `Logger.setConsole`), called while it
 * is constructed, so that method is replaced on this subclass; the unit test of this module fails
 * if a Powertools release stops calling it.
 */
class LazyConsoleLogger extends Logger {}
Object.defineProperty(LazyConsoleLogger.prototype, 'setConsole', {
  value(this: { console: PrintingConsole }) {
    // In dev mode (`POWERTOOLS_DEV`) Powertools would take the global console instead: outside
    // Lambda, where dev mode is used, that writes the same lines to the same two streams.
    this.console = consoleAtFirstLine();
  },
});

/**
 * The one structured logger of the handlers. It is never given the Nomad client, its config,
 * a secret, a task token or a whole event: handlers log ids and counts only, and the tests
 * assert that no line contains the token.
 */
export const logger: Logger = new LazyConsoleLogger({ serviceName: 'nomad-restart' });
