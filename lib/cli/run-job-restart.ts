/**
 * `nomad-restart [options] <job>`: Nomad's `job restart` command line, run through the
 * synthesized state machine (local engine) or an AWS execution. Everything heavy is imported
 * after validation, so a bad flag is reported before anything is loaded or touched.
 */
import type { ProgressEvent } from '../restart/events';
import { createFormatter, type Formatter } from '../restart/format';
import { interpretAnswer, interruptQuestion } from '../restart/questions';
import { CliUsageError } from './errors';
import {
  type GeneralOptions,
  type JobRestartCommandLine,
  jobRestartHelp,
  parseJobRestartArgs,
} from './index';
import { createTerminal, type Terminal, type TerminalStreams, useColor } from './terminal';

/** The additional-help line of DESIGN.md's command-line contract. */
const ADDITIONAL_HELP = "For additional help try 'nomad-restart -help'";

/** Fail states whose cause (Nomad's message) the command prints itself; the others printed through events. */
const PRINT_CAUSE = new Set([
  'InvalidInput',
  'JobNotFound',
  'JobLocked',
  'RescheduleNotAllowed',
  'StepFailed',
]);

export interface RunContext extends TerminalStreams {
  readonly env: NodeJS.ProcessEnv;
  /** Installs the SIGINT handler; returns its removal. @default process signals */
  readonly onInterrupt?: (handler: () => void) => () => void;
}

function reportUsage(error: CliUsageError, terminal: Terminal): number {
  if (error.message !== '') terminal.write({ stream: 'stderr', text: error.message });
  if (error.showHelp)
    terminal.write({ stream: error.exitCode === 0 ? 'stdout' : 'stdout', text: jobRestartHelp() });
  if (error.additionalHelp) terminal.write({ stream: 'stderr', text: ADDITIONAL_HELP });
  return error.exitCode;
}

/**
 * The `NOMAD_*` variables the handlers read (from this process's environment): how the
 * address and token reach them locally without entering the execution input.
 */
function exportNomadEnv(general: GeneralOptions, env: NodeJS.ProcessEnv = process.env): void {
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) env[name] = value;
  };
  set('NOMAD_ADDR', general.address);
  if (general.token === undefined) delete env['NOMAD_TOKEN'];
  set('NOMAD_TOKEN', general.token);
  set('NOMAD_HTTP_AUTH', general.httpAuth);
  set('NOMAD_CACERT', general.tls.caCert);
  set('NOMAD_CAPATH', general.tls.caPath);
  set('NOMAD_CLIENT_CERT', general.tls.clientCert);
  set('NOMAD_CLIENT_KEY', general.tls.clientKey);
  set('NOMAD_TLS_SERVER_NAME', general.tls.serverName);
  if (general.tls.skipVerify) env['NOMAD_SKIP_VERIFY'] = 'true';
}

/** Checks the client configuration the way Nomad does before its first request. */
async function initClient(general: GeneralOptions): Promise<void> {
  const { NomadClient, resolveNomadConfig } = await import('../nomad/index');
  const flags = {
    address: general.address,
    ...(general.token === undefined ? {} : { token: general.token }),
    ...(general.tls.caCert === undefined ? {} : { caCert: general.tls.caCert }),
    ...(general.tls.caPath === undefined ? {} : { caPath: general.tls.caPath }),
    ...(general.tls.clientCert === undefined ? {} : { clientCert: general.tls.clientCert }),
    ...(general.tls.clientKey === undefined ? {} : { clientKey: general.tls.clientKey }),
    ...(general.tls.serverName === undefined ? {} : { tlsServerName: general.tls.serverName }),
    tlsSkipVerify: general.tls.skipVerify,
  };
  await NomadClient.create(resolveNomadConfig(flags)).close();
}

function eventWriter(line: JobRestartCommandLine, formatter: Formatter, terminal: Terminal) {
  return (event: ProgressEvent) => {
    if (line.output === 'json') terminal.write({ stream: 'stdout', text: JSON.stringify(event) });
    else for (const out of formatter.render(event)) terminal.write(out);
  };
}

/** `-dry-run`: plan with read-only calls and print it; never a write request. */
async function dryRun(
  line: JobRestartCommandLine,
  formatter: Formatter,
  terminal: Terminal,
): Promise<number> {
  const [{ NomadClient, resolveNomadConfig }, { planRestart }, { renderPlan }] = await Promise.all([
    import('../nomad/index'),
    import('../restart/engine/index'),
    import('../restart/format-plan'),
  ]);
  const client = NomadClient.create(resolveNomadConfig({}));
  try {
    const write = eventWriter(line, formatter, terminal);
    const planned = await planRestart(client, line.options, {
      // The plan printout explains every allocation itself; only "nothing to do" is said as is.
      emit: (event) => (event.type === 'nothing-to-restart' ? write(event) : undefined),
      now: Date.now,
      confirmMultiregion: async () => true,
    });
    if (planned.kind === 'plan')
      for (const out of renderPlan(planned, line.options, formatter)) terminal.write(out);
    return 0;
  } finally {
    await client.close();
  }
}

async function askInterrupt(formatter: Formatter, terminal: Terminal): Promise<boolean> {
  const question = interruptQuestion();
  for (;;) {
    const read = await terminal.read(formatter.renderQuestion(question, Date.now()));
    if (read.kind !== 'line') {
      terminal.write(
        read.kind === 'eof' ? formatter.renderReadError('EOF') : formatter.renderReadInterrupted(),
      );
      return question.defaultOnInterrupt.kind === 'yes';
    }
    const reply = interpretAnswer(question, read.text.trim());
    if (reply.kind !== 'invalid') return reply.kind === 'yes';
    terminal.write(formatter.renderInvalidAnswer(reply.text));
  }
}

/** The local engine: the synthesized definition in-process, questions at this terminal. */
async function runLocal(
  line: JobRestartCommandLine,
  formatter: Formatter,
  terminal: Terminal,
  ctx: RunContext,
) {
  const [{ runRestartLocally }, { toRestartInput }] = await Promise.all([
    import('../local/engine'),
    import('../restart/input'),
  ]);
  const run = await runRestartLocally({
    input: toRestartInput(line.options),
    emit: eventWriter(line, formatter, terminal),
    prompt: async (prompt, invalidAnswer) => {
      if (invalidAnswer !== undefined) terminal.write(formatter.renderInvalidAnswer(invalidAnswer.trim()));
      const read = await terminal.read(formatter.renderPrompt(prompt, Date.now()));
      if (read.kind === 'line') return { kind: 'answer', text: read.text.trim() };
      const error =
        read.kind === 'eof' ? formatter.renderReadError('EOF') : formatter.renderReadInterrupted();
      terminal.write(error);
      return { kind: 'read-error', text: read.kind === 'eof' ? 'EOF' : 'interrupted' };
    },
  });
  let interrupting = false;
  const stopListening = (ctx.onInterrupt ?? processInterrupts)(() => {
    // While a question is open, SIGINT belongs to it (spec §2.8).
    if (terminal.reading) return terminal.interruptRead();
    if (interrupting) return;
    interrupting = true;
    void askInterrupt(formatter, terminal).then(async (confirmed) => {
      interrupting = false;
      if (!confirmed) return;
      terminal.write(formatter.renderInterruptConfirmed());
      await run.requestCancel();
    });
  });
  try {
    return await run.result;
  } finally {
    stopListening();
  }
}

function processInterrupts(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** Runs the command and returns its exit code (Nomad's: 0 or 1). */
export async function runJobRestart(args: readonly string[], ctx: RunContext): Promise<number> {
  const terminal = createTerminal(ctx);
  try {
    let line: JobRestartCommandLine;
    try {
      line = parseJobRestartArgs(args, { interactive: terminal.interactive, env: ctx.env });
    } catch (error) {
      if (error instanceof CliUsageError) return reportUsage(error, terminal);
      throw error;
    }
    const color = useColor(ctx.stdout.isTTY === true, line.general);
    const formatter = createFormatter({ verbose: line.options.verbose, color });
    try {
      await initClient(line.general);
    } catch (error) {
      terminal.write(formatter.renderError((error as Error).message));
      return 1;
    }
    exportNomadEnv(line.general);
    if (line.options.dryRun) return await dryRun(line, formatter, terminal);
    if (line.engine.kind === 'aws') {
      terminal.write(
        formatter.renderError('The AWS engine is not available in this build: use -engine=local'),
      );
      return 1;
    }
    const result = await runLocal(line, formatter, terminal, ctx);
    return exitCodeOf(result, formatter, terminal);
  } finally {
    terminal.close();
  }
}

/** Nomad's exit code for how the execution ended, printing the cause where no event did. */
function exitCodeOf(
  result: { status: string; output?: unknown; error?: string; cause?: string },
  formatter: Formatter,
  terminal: Terminal,
): number {
  if (result.status === 'SUCCEEDED') {
    const summary = result.output as { outcome?: string; errorText?: string } | undefined;
    if (summary?.outcome === 'failed' || summary?.outcome === 'unrecoverable') return 1;
    return summary?.errorText ? 1 : 0;
  }
  // A confirmed interrupt ends the workflow as Canceled; Nomad exits 0 there (spec §1.4).
  if (result.error === 'Canceled') return 0;
  if (result.error !== undefined && PRINT_CAUSE.has(result.error) && result.cause) {
    terminal.write(formatter.renderError(result.cause));
  } else if (
    result.status !== 'FAILED' ||
    !['UnrecoverableError', 'RestartFailed'].includes(result.error ?? '')
  ) {
    terminal.write(
      formatter.renderError(
        `Restart ${result.status.toLowerCase()}: ${result.error ?? ''} ${result.cause ?? ''}`.trim(),
      ),
    );
  }
  return 1;
}
