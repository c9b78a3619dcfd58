/**
 * Command-line errors. Each carries what the entry point must do with it: the exit code,
 * whether the help text goes to stdout, and whether the additional-help line follows the
 * message on stderr (Nomad prints it after value errors, not after flag syntax errors).
 */
import { NamedError } from '../../errors/named-error';

/** Base class: a command line that cannot run. */
export class CliUsageError extends NamedError {
  /** Process exit code. */
  readonly exitCode: 0 | 1;
  /** Print the command's help text to stdout. */
  readonly showHelp: boolean;
  /** Print `For additional help try 'nomad-restart -help'` to stderr after the message. */
  readonly additionalHelp: boolean;

  constructor(
    message: string,
    props: { exitCode: 0 | 1; showHelp: boolean; additionalHelp: boolean },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.exitCode = props.exitCode;
    this.showHelp = props.showHelp;
    this.additionalHelp = props.additionalHelp;
  }
}

/**
 * Go `flag` package failure, e.g. `flag provided but not defined: -foo`: the message on
 * stderr, then the help text on stdout, exit 1, no additional-help line (Nomad's
 * `command/job_restart.go` `parseAndValidate`, flag parsing).
 */
export class GoFlagError extends CliUsageError {
  constructor(message: string) {
    super(message, { exitCode: 1, showHelp: true, additionalHelp: false });
  }
}

/** `-h`, `-help` or `--help`: print the help text and exit 0 (no message). */
export class HelpRequestedError extends CliUsageError {
  constructor() {
    super('', { exitCode: 0, showHelp: true, additionalHelp: false });
  }
}

/**
 * Wrong argument count or a bad option value (Nomad's `command/job_restart.go` `parseAndValidate`
 * and our own options): the message, then the additional-help line, both on stderr; exit 1.
 */
export class CommandArgumentError extends CliUsageError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { exitCode: 1, showHelp: false, additionalHelp: true }, options);
  }
}
