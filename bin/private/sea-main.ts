/**
 * The single executable's entry (`npm run build:sea`, scripts/sea-executable.ts): the architecture
 * check comes first, before the command is even compiled, so a mismatch prints one line and never
 * a V8 or loader error; then the command's bundle runs from the executable's assets
 * (lib/sea/embedded-command.ts), exactly as `bin/nomad-restart.ts` runs.
 */
import { machine } from 'node:os';
import { getAsset } from 'node:sea';
import { wrongArchitectureMessage } from '../../lib/sea/architecture';
import { runEmbeddedCommand } from '../../lib/sea/embedded-command';
import { SEA_TARGET_ASSET } from '../../lib/sea/packaged-file';

const refusal = wrongArchitectureMessage(
  getAsset(SEA_TARGET_ASSET, 'utf8'),
  process.arch,
  machine(),
  process.platform,
);
if (refusal === undefined) {
  runEmbeddedCommand(require);
} else {
  process.stderr.write(`${refusal}\n`);
  process.exitCode = 1;
}
