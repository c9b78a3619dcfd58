/**
 * A fleet run through the local engine, at this terminal: the fleet state machine run in-process
 * (`runFleetLocally`), its lines as they happen, the jobs' questions asked here one at a time
 * (each names its job), and SIGINT as the one-job command handles it: the interrupt question, and
 * once confirmed every running job canceled at its next safe point and no further job started;
 * answered `p`, a pause of the whole fleet (docs/run-control.md "A fleet"), whose one question is
 * then asked here once.
 */
import type { FleetPauseAsker } from '../../engines/local/fleet-steering';
import type { FleetProgressEvent } from '../../fleet/events';
import type { FleetFormatter } from '../../fleet/format';
import { pauseQuestion } from '../../restart/questions';
import type { FleetCommandLine } from '../commands/fleet-command';
import { fleetExitCodeOf } from './exit-code';
import { fleetEventWriter } from './fleet-output';
import { type HeldOutput, heldOutput } from './held-output';
import { handleInterrupts, type InterruptSource, pauseThrough } from './interrupt';
import { operatorName } from './operator';
import { askUnlessWithdrawn, terminalPrompt } from './questions';
import type { Terminal } from './terminal';
import { TerminalDesk } from './terminal-desk';

/** Runs the fleet and returns its exit code. */
export async function runFleet(
  line: FleetCommandLine,
  formatter: FleetFormatter,
  terminal: Terminal,
  interrupts: InterruptSource,
): Promise<number> {
  // As for one job (`run-local.ts`): zod's JIT costs more than it saves in a run, and is off only
  // for the schemas built after this call.
  (await import('./zod-jitless')).zodJitless();
  const [{ runFleetLocally }, { toFleetInput }] = await Promise.all([
    import('../../engines/local/fleet-engine'),
    import('../../fleet/input'),
  ]);
  const output = heldOutput<FleetProgressEvent>(fleetEventWriter(line.output, formatter, terminal));
  // The interrupt question and the jobs' questions take turns: a reply answers the question on screen.
  const desk = new TerminalDesk(formatter.job, terminal);
  const prompt = terminalPrompt(formatter.job, terminal);
  // Stopped by the operator here (a confirmed interrupt, a no to the fleet's pause question): the
  // fleet's ABORTED end is then this command's own, exit 0 as for one job.
  let canceled = false;
  const stoppedHere = () => {
    canceled = true;
  };
  const run = await runFleetLocally({
    // Who started it, for the people its questions reach when they go to chat.
    input: toFleetInput(line.fleet, operatorName()),
    nomad: line.general.nomad,
    ...(line.general.consul === undefined ? {} : { consul: line.general.consul }),
    emit: output.write,
    prompt: (text, invalidAnswer) => desk.exclusive(() => prompt(text, invalidAnswer)),
    onPreparing: terminal.notice,
    // Not at a terminal: nobody here can answer, a `resume` or `stop` request decides.
    ...(terminal.interactive ? { askPause: fleetPauseAsker(desk, output, stoppedHere) } : {}),
  });
  const stopListening = handleInterrupts(interrupts, desk, {
    asking: output.hold,
    answered: async (confirmed) => {
      if (!confirmed) return output.release();
      stoppedHere();
      output.silence();
      await run.requestCancel();
    },
    pause: pauseThrough(run),
  });
  try {
    return fleetExitCodeOf(await run.result, formatter.job, terminal, canceled);
  } finally {
    stopListening();
  }
}

/**
 * The fleet's one pause question, in its turn at the terminal (an interrupt never cancels it: a
 * read that fails answers it with its default, no); withdrawn once a request decided it. It is
 * asked as soon as the pause is recorded, while the jobs still go on to their safe points: their
 * lines (`Restart paused by …`) are held while it is open, as around the interrupt question, so
 * none lands on the question's line.
 * @param stopping told before a no here stops the fleet
 */
function fleetPauseAsker(
  desk: TerminalDesk,
  output: Pick<HeldOutput<FleetProgressEvent>, 'hold' | 'release'>,
  stopping: () => void,
): FleetPauseAsker {
  return (pause, withdrawn) =>
    desk.exclusive(async () => {
      if (withdrawn.aborted) return undefined;
      output.hold();
      try {
        const answer = await askUnlessWithdrawn(
          pauseQuestion(pause),
          desk.formatter,
          desk.terminal,
          withdrawn,
        );
        if (answer === undefined) return undefined;
        if (answer.kind !== 'yes') stopping();
        return { decision: answer.kind === 'yes' ? 'resume' : 'stop', answeredBy: operatorName() };
      } finally {
        output.release();
      }
    });
}
