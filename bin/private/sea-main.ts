/**
 * The single executable's entry (`npm run build:sea`, scripts/build-sea.ts): the architecture
 * check comes first, before any of the command is evaluated, so a mismatch prints one line and
 * never a V8 or loader error; then the command starts exactly as `bin/nomad-restart.ts` does.
 */
import { machine } from 'node:os';
import { getAsset } from 'node:sea';
import { wrongArchitectureMessage } from '../../lib/sea/architecture';
import { SEA_TARGET_ASSET } from '../../lib/sea/packaged-file';

const refusal = wrongArchitectureMessage(
  getAsset(SEA_TARGET_ASSET, 'utf8'),
  process.arch,
  machine(),
  process.platform,
);
if (refusal === undefined) {
  // A dynamic import, so the bundle evaluates the command only after the check passed.
  void import('../nomad-restart');
} else {
  process.stderr.write(`${refusal}\n`);
  process.exitCode = 1;
}
