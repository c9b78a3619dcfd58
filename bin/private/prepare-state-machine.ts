/**
 * The state machine's half of a first run from a checkout: the launcher runs this in a child
 * process beside the command's bundling (bin/private/state-machine-child.js), so the two share the
 * machine's cores instead of running one after the other. It synthesizes and checks the local
 * definition into its cache (lib/engines/local/local-definition.ts) when a source changed, and
 * does nothing when the cache is fresh. A failure only sets the exit code: the command then
 * synthesizes again in its own process and reports the error as any run does.
 */
import { loadLocalDefinition } from '../../lib/engines/local/local-definition';

loadLocalDefinition().catch(() => {
  process.exitCode = 1;
});
