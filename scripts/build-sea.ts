/**
 * `npm run build:sea [-- <arch>...]`: the single executables, `release/nomad-restart-linux-x64`
 * and `release/nomad-restart-linux-arm64` (or only the architectures named), with their sizes.
 * How they are made: scripts/sea-executable.ts; what they are: README, "A single executable".
 */
import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEA_ARCHES } from '../lib/sea/architecture';
import { buildSingleExecutables } from './sea-executable';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const arches = process.argv.slice(2);
const unknown = arches.find((arch) => !(SEA_ARCHES as readonly string[]).includes(arch));
if (unknown !== undefined) {
  process.stderr.write(`build:sea: unknown architecture "${unknown}": want ${SEA_ARCHES.join(' or ')}\n`);
  process.exit(2);
}
const started = performance.now();
const outs = await buildSingleExecutables(join(ROOT, 'release'), arches.length > 0 ? arches : SEA_ARCHES);
for (const out of outs) {
  process.stdout.write(`${relative(ROOT, out)}: ${(statSync(out).size / 1e6).toFixed(1)} MB\n`);
}
process.stdout.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
