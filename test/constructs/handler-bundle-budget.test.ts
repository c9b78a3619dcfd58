/**
 * Scenario: what each Lambda handler ships stays small, and never carries the build's world. A
 * constant imported from a module that imports `aws-cdk-lib` once pulled all of it into the
 * run-end notifier (82 MB with its map, ~470 MB to load in a 256 MB function): no test saw it,
 * since tests run the sources, not the bundles. Here every `lambdas/<id>.ts` is bundled with the
 * options the deploy uses (lib/constructs/private/handler-bundle.ts), in memory, in one esbuild
 * run (about 10 s on a loaded 2-core machine; about 30 s if the handlers bundle the AWS SDK).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { HANDLER_BUNDLE_FILE, handlerEsbuildOptions } from '../../lib/constructs/private/handler-bundle';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The most one handler's code may weigh. Today's are 0.2–0.3 MB with the AWS SDK left to the
 * runtime and about 1.1 MB with it bundled: 2 MB leaves room to grow, not to take in a framework.
 */
const CODE_BUDGET_BYTES = 2 * 1024 * 1024;
/** The most one handler's code and source map together may weigh (both go into its asset). */
const ASSET_BUDGET_BYTES = 4 * 1024 * 1024;

/**
 * What must never reach a handler: the CDK and the build tools (synth-time only), the local engine
 * and the Nomad simulator (this repository's own test world), the constructs.
 */
const FORBIDDEN_INPUTS = [
  /^node_modules\/aws-cdk-lib\//,
  /^node_modules\/constructs\//,
  /^node_modules\/(esbuild|typescript|tsx)\//,
  /^node_modules\/aws-local-stepfunctions\//,
  /^sim\//,
  /^bin\//,
  /^lib\/constructs\//,
  /^lib\/engines\//,
];

/** One handler's bundle as measured: its code, its map, and the forbidden modules inside. */
interface HandlerBundle {
  id: string;
  codeBytes: number;
  mapBytes: number;
  forbidden: string[];
}

/** Bundles every handler at once (one parse of what they share) and measures each output. */
async function bundleAll(): Promise<HandlerBundle[]> {
  const ids = readdirSync(join(ROOT, 'lambdas'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -'.ts'.length));
  const { metafile } = await build({
    ...handlerEsbuildOptions(),
    entryPoints: Object.fromEntries(ids.map((id) => [`${id}/index`, join(ROOT, 'lambdas', `${id}.ts`)])),
    absWorkingDir: ROOT,
    outdir: join(ROOT, '.nomad-restart', 'handler-budget'),
    outExtension: { '.js': '.mjs' },
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return ids.map((id) => measure(metafile, id));
}

function measure(metafile: Metafile, id: string): HandlerBundle {
  const outputs = Object.entries(metafile.outputs);
  const code = outputs.find(([path]) => path.endsWith(`/${id}/${HANDLER_BUNDLE_FILE}`));
  const map = outputs.find(([path]) => path.endsWith(`/${id}/${HANDLER_BUNDLE_FILE}.map`));
  if (code === undefined) throw new Error(`esbuild wrote no ${HANDLER_BUNDLE_FILE} for ${id}`);
  const forbidden = Object.keys(code[1].inputs).filter((input) =>
    FORBIDDEN_INPUTS.some((pattern) => pattern.test(input)),
  );
  return { id, codeBytes: code[1].bytes, mapBytes: map?.[1].bytes ?? 0, forbidden };
}

describe('every Lambda handler bundle', () => {
  let bundles: HandlerBundle[];
  beforeAll(async () => {
    bundles = await bundleAll();
  }, 120_000);

  it('covers every handler in lambdas/', () => {
    // Assert: the notifier is the one that once carried the CDK.
    expect(bundles.map(({ id }) => id)).toContain('notify-run-ended');
    expect(bundles.length).toBeGreaterThanOrEqual(18);
  });

  it('carries neither the CDK, the build tools, the local engine nor the simulator', () => {
    // Assert
    const offenders = bundles.filter(({ forbidden }) => forbidden.length > 0);
    expect(offenders.map(({ id, forbidden }) => `${id}: ${forbidden.slice(0, 3).join(', ')}`)).toEqual([]);
  });

  it(`stays under ${CODE_BUDGET_BYTES / 1024 / 1024} MB of code and ${ASSET_BUDGET_BYTES / 1024 / 1024} MB with its source map`, () => {
    // Assert
    const over = bundles
      .filter(
        ({ codeBytes, mapBytes }) =>
          codeBytes > CODE_BUDGET_BYTES || codeBytes + mapBytes > ASSET_BUDGET_BYTES,
      )
      .map(({ id, codeBytes, mapBytes }) => `${id}: ${codeBytes} B of code, ${mapBytes} B of map`);
    expect(over).toEqual([]);
  });
});
