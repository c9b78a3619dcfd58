/**
 * A restart through the local engine, at this terminal: progress lines as the workflow's
 * steps report them, its questions asked here, and SIGINT handled as Nomad's
 * `command/job_restart.go` `handleSignal` does.
 */

import type { ExecutionResult } from '../../engines/local/types';
import type { AlarmReader } from '../../restart/alarms';
import type { ProgressEvent } from '../../restart/events';
import type { Formatter } from '../../restart/format';
import type { JobRestartCommandLine } from '../commands/job-restart-command';
import { heldOutput } from './held-output';
import type { InterruptSource } from './interrupt-source';
import { progressEventLine } from './json-output';
import { operatorName } from './operator';
import type { EventContext } from './run-progress';
import type { StatusLineOutput } from './status-line';
import type { Terminal } from './terminal';
import { watchRun } from './watch-run';

/**
 * Prints progress events: Nomad's lines, or one JSON object per line with `-output=json`.
 * @param context the run's context each JSON event carries (job, namespace, batch, totals)
 */
export function eventWriter(
  line: Pick<JobRestartCommandLine, 'output'>,
  formatter: Formatter,
  terminal: Terminal,
  context: () => EventContext | undefined = () => undefined,
) {
  return (event: ProgressEvent) => {
    if (line.output === 'json') terminal.write(progressEventLine(event, context()));
    else for (const out of formatter.render(event)) terminal.write(out);
  };
}

/**
 * Runs the restart. While the interrupt question is open no new Task starts (so no new
 * allocation is touched) and lines are held back; a confirmed interrupt cancels the run at its
 * next safe point and prints nothing more, as Nomad exits at once.
 */
export async function runLocal(
  line: JobRestartCommandLine,
  formatter: Formatter,
  shell: Terminal,
  interrupts: InterruptSource,
  out: StatusLineOutput,
  /** `-stop-on-alarm`'s reader, checked before the run (lib/cli/terminal/alarm-access.ts). */
  alarms?: AlarmReader,
): Promise<ExecutionResult> {
  // zod's JIT off (zod-jitless.ts) before any schema is built: an object schema reads the setting
  // when it is made, not when it parses (zod's `$ZodObjectJIT`, v4/core/schemas.js). Awaited alone,
  // not beside the imports below: jest's module loader fails on one package imported twice at once.
  (await import('./zod-jitless')).zodJitless();
  const [{ planFirst }, { toRestartInput }, { eventSink }] = await Promise.all([
    import('../../engines/local/plan-first'),
    import('../../restart/input'),
    import('../../engines/local/event-sink'),
  ]);
  const watch = watchRun(line, shell, out);
  const { terminal, progress } = watch;
  const output = heldOutput(eventWriter(line, formatter, terminal, () => progress.eventContext()));
  // One sink for the steps run before the engine and the engine's: an event each streamed live
  // and a later state repeats is shown once.
  const events = eventSink((event) => {
    progress.event(event);
    output.write(event);
  });
  const client = {
    ...(line.general.consul === undefined ? {} : { consul: line.general.consul }),
    ...(alarms === undefined ? {} : { alarms }),
  };
  // Who started it, for the people its questions reach when they go to chat.
  const input = toRestartInput(line.options, operatorName());
  const first = await planFirst({ input, nomad: watch.nomad, ...client, emit: events.live }).catch(
    (error: unknown) => {
      watch.stop();
      throw error;
    },
  );
  // The job not found, a plan refused: the run ends where the definition would end it.
  if (first.kind === 'ended') {
    watch.stop();
    return first.result;
  }
  // The engine, and the questions a run with work in it may ask here, only now: a run its plan
  // ended never loads them.
  const { runRestartLocally } = await import('../../engines/local/engine');
  const { terminalPrompt } = await import('./questions');
  const { handleInterrupts, pauseThrough } = await import('./interrupt');
  const { TerminalDesk } = await import('./terminal-desk');
  const run = await runRestartLocally({
    input,
    nomad: watch.nomad,
    ...client,
    made: first.made,
    emit: events.live,
    onStateExited: (_name, state) => watch.stateExited(state),
    prompt: terminalPrompt(formatter, terminal),
    onPreparing: terminal.notice,
  });
  const stopListening = handleInterrupts(interrupts, new TerminalDesk(formatter, terminal), {
    asking: () => {
      output.hold();
      run.pause();
    },
    answered: async (confirmed) => {
      if (confirmed) {
        output.silence();
        await run.requestCancel();
      } else {
        output.release();
      }
      run.resume();
    },
    pause: pauseThrough(run),
  });
  try {
    return await run.result;
  } finally {
    stopListening();
    watch.stop();
  }
}
