/**
 * Scenario: importing a handler, or starting the command, loads no AWS SDK client. The local
 * engine imports the handler of every Task it runs, in the command's own process, and never
 * calls AWS: the S3, DynamoDB, Step Functions and Secrets Manager clients are loaded on first use
 * only (`lib/stores/from-env.ts`, the Nomad client middleware, `-engine=aws`). One static import
 * of a module that holds an AWS store (`import { LockHeldError } from '../lib/stores'` in Lock
 * job once, the DynamoDB replay guard beside the memory one later) put ~30 ms of CPU on every
 * restart. esbuild reads the import graph, npm packages included.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { TASK_STATE_HANDLERS } from '../../lib/workflow/state-names';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The handlers the local engine binds to Task states (others, like the approval notifier, run on AWS only). */
const HANDLERS = [...new Set(Object.values(TASK_STATE_HANDLERS))].map((id) => `lambdas/${id}.ts`);
/** The command itself: `-engine=aws` loads its SDK clients when it is chosen, not before. */
const COMMAND = 'bin/nomad-restart.ts';

/** Every input reached from `entry` through static imports and requires (not `import()`). */
function staticClosure(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of metafile.inputs[file]?.imports ?? []) {
      if (edge.kind === 'import-statement' || edge.kind === 'require-call') pending.push(edge.path);
    }
  }
  return seen;
}

describe('Lambda handlers and the command', () => {
  let metafile: Metafile;
  beforeAll(async () => {
    ({ metafile } = await build({
      entryPoints: [...HANDLERS, COMMAND],
      absWorkingDir: ROOT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
    }));
  });

  it.each([...HANDLERS, COMMAND])('%s loads no AWS SDK client when imported', (entry) => {
    // Act
    const loaded = [...staticClosure(metafile, entry)];

    // Assert
    expect(loaded.length).toBeGreaterThan(10);
    expect(loaded.filter((file) => file.includes('node_modules/@aws-sdk/'))).toEqual([]);
  });
});
