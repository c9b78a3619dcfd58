/**
 * A fleet run through the local engine, at this terminal: the fleet state machine run in-process
 * (`runFleetLocally`), its lines as they happen, the jobs' questions asked here one at a time
 * (each names its job), and SIGINT as the one-job command handles it: the interrupt question, and
 * once confirmed every running job canceled at its next safe point and no further job started.
 */
import type { FleetProgressEvent } from '../../fleet/events';
import type { FleetFormatter } from '../../fleet/format';
import type { FleetCommandLine } from '../commands/fleet-command';
import { fleetExitCodeOf } from './exit-code';
import { fleetEventWriter } from './fleet-output';
import { heldOutput } from './held-output';
import { handleInterrupts, type InterruptSource } from './interrupt';
import { operatorName } from './operator';
import { terminalPrompt } from './questions';
import type { Terminal } from './terminal';
import { TerminalDesk } from './terminal-desk';

/** Runs the fleet and returns its exit code. */
export async function runFleet(
  line: FleetCommandLine,
  formatter: FleetFormatter,
  terminal: Terminal,
  interrupts: InterruptSource,
): Promise<number> {
  const [{ runFleetLocally }, { toFleetInput }] = await Promise.all([
    import('../../engines/local/fleet-engine'),
    import('../../fleet/input'),
  ]);
  // As for one job (`run-local.ts`): zod's JIT costs more than it saves in a run.
  (await import('zod')).config({ jitless: true });
  const output = heldOutput<FleetProgressEvent>(fleetEventWriter(line.output, formatter, terminal));
  // The interrupt question and the jobs' questions take turns: a reply answers the question on screen.
  const desk = new TerminalDesk(formatter.job, terminal);
  const prompt = terminalPrompt(formatter.job, terminal);
  const run = await runFleetLocally({
    // Who started it, for the people its questions reach when they go to chat.
    input: toFleetInput(line.fleet, operatorName()),
    nomad: line.general.nomad,
    ...(line.general.consul === undefined ? {} : { consul: line.general.consul }),
    emit: output.write,
    prompt: (text, invalidAnswer) => desk.exclusive(() => prompt(text, invalidAnswer)),
    onPreparing: terminal.notice,
  });
  let canceled = false;
  const stopListening = handleInterrupts(interrupts, desk, {
    asking: output.hold,
    answered: async (confirmed) => {
      if (!confirmed) return output.release();
      canceled = true;
      output.silence();
      await run.requestCancel();
    },
  });
  try {
    return fleetExitCodeOf(await run.result, formatter.job, terminal, canceled);
  } finally {
    stopListening();
  }
}
