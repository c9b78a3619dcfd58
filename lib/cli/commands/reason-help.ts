/**
 * The help entry of `-reason` (issue #40), beside the other options beyond `nomad job restart`,
 * with what every run's record in the job's history needs of the token.
 */
import { MAX_REASON_LENGTH } from '../../restart/run/reason';

/** `-reason`'s help entry, by flag. */
export const REASON_OPTION_HELP: Readonly<Record<string, string>> = {
  reason: `
  -reason=<text>
    Why the run is started (a ticket, a sentence), kept with its record in
    the job's restart history ('nomad-restart history <job>'): one line of at
    most ${MAX_REASON_LENGTH} characters. Every run, with or without a reason,
    records itself in the Nomad variable 'nomad-restart/history/<job>' in the
    job's namespace, which needs the 'read' and 'write' variables capabilities
    on 'nomad-restart/history/*'; without them the command warns once and
    restarts all the same.`,
};
