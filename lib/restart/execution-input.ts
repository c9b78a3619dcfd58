/**
 * What an execution of the state machine accepts as input, checked the same way wherever it is
 * written: by "Validate input" when the execution starts, and by a schedule at `cdk synth`, so
 * a schedule that could never run fails before it is deployed.
 */
import { RestartValidationError } from './errors';
import { validateRestartInput } from './input';
import type { RestartOptions } from './options';

/**
 * {@link validateRestartInput} as the workflow reads it: questions are allowed (chat, the
 * console or a terminal answer them through the approvals table), and a dry run is refused (the
 * graph has no read-only path: `nomad-restart -dry-run` plans without starting an execution).
 *
 * @param now the execution's start (Unix ms): what a relative `startedBefore` counts back from
 *   (see `ValidationContext.now`). @default - the clock at validation
 * @throws RestartValidationError with Nomad's message, or naming the field
 */
export function validateExecutionInput(raw: unknown, now?: number): RestartOptions {
  const options = validateRestartInput(raw, { interactive: true, ...(now === undefined ? {} : { now }) });
  if (options.dryRun) {
    throw new RestartValidationError(
      'Invalid input field "dryRun": got true, expected false (a dry run is made by "nomad-restart -dry-run", not by an execution)',
      { field: 'dryRun' },
    );
  }
  return options;
}
