/** The help entry of `-reason` (issue #40), beside the other options beyond `nomad job restart`. */
import { MAX_REASON_LENGTH } from '../../restart/run/reason';

/** `-reason`'s help entry, by flag. */
export const REASON_OPTION_HELP: Readonly<Record<string, string>> = {
  reason: `
  -reason=<text>
    Why the run is started (a ticket, a sentence), kept with its record in
    the job's restart history ('nomad-restart history <job>'): one line of at
    most ${MAX_REASON_LENGTH} characters.`,
};
