/**
 * The layout's rules, checked on the import graph (docs/layout.md): each part imports only
 * the parts below it, the restart domain stays pure (Nomad's types, never its client), nothing
 * in lib/, lambdas/ or sim/ forms an import cycle, a part's `private/` folder is its own, steps are
 * named as steps, and the size limits that keep files and folders readable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ImportEdge, importCycles, readImportGraph } from './import-graph';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
process.chdir(ROOT);
const edges = readImportGraph(ROOT, ['lib', 'lambdas', 'bin', 'sim']);

/**
 * Every source file may hold at most this many lines: STYLE.md's "split past about 400" (Nomad's
 * own 1,200-line `command/job_restart.go` is the counter-example).
 */
const FILE_LINE_CEILING = 400;
/** A folder with more source files than this is a flat list that no longer says what goes together. */
const FOLDER_FILE_CEILING = 30;

function listSources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
/** Every TypeScript source of the checked folders, imported or not. */
const sourceFiles = ['lib', 'lambdas', 'bin', 'sim'].flatMap(listSources);
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const lines = (file: string) => source(file).split('\n').length - 1;

/** The part a file belongs to: `lib/<part>`, `lib/engines/<engine>`, or a top-level folder. */
function partOf(file: string): string {
  const [top, second, third] = file.split('/');
  if (top !== 'lib') return top ?? file;
  return second === 'engines' ? `lib/engines/${third}` : `lib/${second}`;
}

/**
 * What each part may import at run time, from the bottom up. A part not listed imports
 * nothing outside itself. `lib/engines/local` also loads `lambdas/<handler>.ts` by name, as the
 * Lambda runtime would.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  // Go's strconv, time, flag and quoting rules, ported: the bottom layer, which every part may
  // import (Nomad's inputs and messages pass through them).
  'lib/go': [],
  // The base every error hierarchy extends (an error's name is its class's): beside lib/go, below all.
  'lib/errors': [],
  // Plain digests (SHA-1) for names and fingerprints, without `node:crypto`'s start: beside lib/go, below all.
  'lib/digest': [],
  // Run control's requests (issue #39): their shape and who asked, read by the stores that keep
  // them, the steps that act on them and the lines that show them: beside lib/go, below all.
  'lib/control': [],
  // The files the command ships, read from disk or from the single executable's assets (the
  // local engine's definition, the simulator's scenarios): beside lib/go, below all.
  'lib/sea': [],
  // The esbuild plugin every bundle of the project's sources uses, in plain JavaScript: the launcher
  // (bin/private/) imports it before any bundle exists, the local engine's synth bundles the CDK app with it.
  'lib/bundling': [],
  // HTTP plumbing shared by the Nomad and Consul clients: connection pool, retries, TLS files, Go's texts.
  'lib/http': [],
  'lib/nomad': ['lib/http'],
  // The health gate's Consul reads (issue #31): Consul's own client, beside Nomad's.
  'lib/consul': ['lib/http'],
  'lib/restart': [],
  // -stop-on-alarm's reader over CloudWatch (issue #39): the SDK client stays out of lib/restart.
  'lib/alarms': ['lib/restart'],
  // Fleet runs (issue #37): the pure fleet domain (selection rules, order, budget, its lines) on
  // top of the one-job domain's options and formatter.
  'lib/fleet': ['lib/restart'],
  // The run history's records (issue #40): the pure record domain, on the one-job domain's outcomes.
  'lib/history': ['lib/restart'],
  // The run's CloudWatch metric names (issue #40), read by the Lambdas and the stack's dashboard.
  'lib/metrics': ['lib/restart'],
  // The shared job lock is a Nomad variable (stores have Nomad Variables implementations); the run
  // history's check-and-set rounds back off as the clients' retries do (lib/http/retry.ts).
  'lib/stores': ['lib/restart', 'lib/nomad', 'lib/history', 'lib/http'],
  // The Retry fields name the Nomad client's transient error classes.
  'lib/workflow': ['lib/nomad', 'lib/restart', 'lib/fleet', 'lib/stores'],
  'lib/steps': [
    'lib/history',
    'lib/metrics',
    'lib/nomad',
    'lib/consul',
    'lib/alarms',
    'lib/restart',
    'lib/fleet',
    'lib/stores',
    'lib/workflow',
  ],
  // Chat-ops approvals: notifiers, request verification, one decision per question; a fleet's
  // run-control request finds the fleet's jobs by the execution names the fleet gives them.
  'lib/approvals': ['lib/restart', 'lib/fleet', 'lib/stores'],
  lambdas: [
    'lib/history',
    'lib/metrics',
    'lib/nomad',
    'lib/consul',
    'lib/alarms',
    'lib/restart',
    'lib/fleet',
    'lib/stores',
    'lib/workflow',
    'lib/steps',
    'lib/approvals',
  ],
  'lib/constructs': [
    'lib/restart',
    'lib/fleet',
    'lib/stores',
    'lib/workflow',
    'lib/approvals',
    'lib/metrics',
  ],
  // A terminal's process renews its shared lock in Nomad between steps (shared-lock-keeper.ts).
  'lib/engines/local': [
    'lib/bundling',
    'lib/nomad',
    'lib/restart',
    'lib/fleet',
    'lib/stores',
    'lib/workflow',
    'lib/steps',
    'lib/history',
  ],
  // A terminal answers a question through the one decision function, as chat does.
  'lib/engines/aws': ['lib/restart', 'lib/fleet', 'lib/stores', 'lib/workflow', 'lib/approvals'],
  // The dry run plans in-process; `demo` and `sim` serve the simulator; `questions`, `approve`
  // and `deny` read the approvals table and answer through the one decision function.
  'lib/cli': [
    'lib/history',
    'lib/nomad',
    'lib/consul',
    'lib/alarms',
    'lib/restart',
    'lib/fleet',
    'lib/stores',
    // A run's exit status is read from its end, one rule for both engines.
    'lib/workflow',
    'lib/steps',
    'lib/engines/local',
    'lib/engines/aws',
    'lib/approvals',
    'sim',
  ],
  bin: ['lib/cli', 'lib/constructs'],
  sim: ['lib/nomad', 'lib/consul', 'lib/restart'],
};
/** What each part may import for its types only (erased at run time), besides the above. */
const MAY_IMPORT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'lib/restart': ['lib/nomad'],
  'lib/stores': ['lib/nomad'],
  // The answer sent with SendTaskSuccess is the workflow's ApprovalAnswer.
  'lib/approvals': ['lib/workflow'],
  'lib/engines/local': ['lambdas'],
  'lib/engines/aws': ['lib/nomad'],
  'lib/cli': ['lib/workflow', 'lib/stores'],
};

/** The parts below all others: they import nothing, and every part may import them. */
const BOTTOM: readonly string[] = ['lib/go', 'lib/errors', 'lib/control', 'lib/sea', 'lib/digest'];

/**
 * Single files a part may import at run time though their part is out of reach: Nomad's error
 * texts (`api.PermissionDeniedErrorContent`), which the restart domain's recoverability rule reads;
 * the local state machine's synth, which the launcher's child runs.
 */
const MAY_IMPORT_FILES: Readonly<Record<string, readonly string[]>> = {
  'lib/restart': ['lib/nomad/errors.ts'],
  // A first run from a checkout synthesizes the local state machine in a child process beside
  // the command's bundling (bin/private/prepare-state-machine.ts), before the command runs.
  bin: ['lib/engines/local/local-definition.ts'],
};

function allowed(edge: ImportEdge): boolean {
  const from = partOf(edge.from);
  const to = partOf(edge.to);
  if (from === to || BOTTOM.includes(to)) return true;
  if ((MAY_IMPORT_FILES[from] ?? []).includes(edge.to)) return true;
  if ((MAY_IMPORT[from] ?? []).includes(to)) return true;
  return edge.typeOnly && (MAY_IMPORT_TYPES[from] ?? []).includes(to);
}

const describeEdge = (e: ImportEdge) => `${e.from} -> ${e.to}${e.typeOnly ? ' (types)' : ''}`;

describe('the layout', () => {
  it('reads a graph that has the parts in it', () => {
    // Arrange
    const parts = new Set(edges.flatMap((e) => [partOf(e.from), partOf(e.to)]));

    // Act
    const unknown = [...parts].filter((part) => MAY_IMPORT[part] === undefined);

    // Assert
    expect(edges.length).toBeGreaterThan(300);
    expect(unknown).toEqual([]);
  });

  it('imports only downward', () => {
    // Act
    const upward = edges.filter((edge) => !allowed(edge)).map(describeEdge);

    // Assert
    expect(upward).toEqual([]);
  });

  it('keeps the restart domain free of the Nomad client at run time', () => {
    // Act
    const runtime = edges.filter(
      (e) =>
        partOf(e.from) === 'lib/restart' &&
        partOf(e.to) !== 'lib/restart' &&
        !BOTTOM.includes(partOf(e.to)) &&
        !e.typeOnly &&
        !(MAY_IMPORT_FILES['lib/restart'] ?? []).includes(e.to),
    );
    const throughAllowedFiles = edges.filter(
      (e) =>
        (MAY_IMPORT_FILES['lib/restart'] ?? []).includes(e.from) &&
        !BOTTOM.includes(partOf(e.to)) &&
        !e.typeOnly,
    );

    // Assert
    expect(runtime.map(describeEdge)).toEqual([]);
    expect(throughAllowedFiles.map(describeEdge)).toEqual([]);
  });

  it('has no import cycle in lib/, lambdas/ or sim/, type-only imports included', () => {
    // Arrange
    const inScope = edges.filter((e) => /^(lib|lambdas|sim)\//.test(e.from));

    // Act
    const cycles = importCycles(inScope);

    // Assert
    expect(cycles).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    // Arrange
    const loop: ImportEdge[] = [
      { from: 'a.ts', to: 'b.ts', typeOnly: true },
      { from: 'b.ts', to: 'c.ts', typeOnly: false },
      { from: 'c.ts', to: 'a.ts', typeOnly: false },
      { from: 'c.ts', to: 'd.ts', typeOnly: false },
    ];

    // Act
    const cycles = importCycles(loop);

    // Assert
    expect(cycles).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('opens every non-index source file with a comment saying what it is for', () => {
    // Arrange
    const files = [...new Set(edges.flatMap((e) => [e.from, e.to]))].filter((f) => !f.endsWith('/index.ts'));

    // Act
    const silent = files.filter((f) => !/^\s*(\/\*\*|\/\/)/.test(readFileSync(join(ROOT, f), 'utf8')));

    // Assert
    expect(silent).toEqual([]);
  });

  it("imports a part's private/ folder only from inside that part", () => {
    // Arrange: `x/private/y.ts` belongs to `x/`; nothing outside `x/` may lean on it.
    const ownerOf = (file: string) => file.slice(0, file.indexOf('/private/'));

    // Act
    const reaching = edges.filter(
      (e) => e.to.includes('/private/') && !e.from.startsWith(`${ownerOf(e.to)}/`),
    );

    // Assert
    expect(reaching.map(describeEdge)).toEqual([]);
  });

  it('names the workflow steps as steps, never as an engine', () => {
    // Arrange: the engines (local, aws) run the steps; a step or its error is not an engine.
    const files = sourceFiles.filter((f) => f.startsWith('lib/steps/') || f.startsWith('lib/workflow/'));

    // Act
    const engineNamed = files.filter(
      (f) => /engine/i.test(f) || /export (class|interface|type|function|const) \w*Engine/.test(source(f)),
    );

    // Assert
    expect(engineNamed).toEqual([]);
  });

  it('keeps handlers thin, long files rare, and every file under the ceiling', () => {
    // Act
    const longHandlers = sourceFiles.filter((f) => f.startsWith('lambdas/') && lines(f) > 250);
    const longLib = sourceFiles.filter((f) => f.startsWith('lib/') && lines(f) > 300);
    const overCeiling = sourceFiles.filter((f) => lines(f) > FILE_LINE_CEILING);

    // Assert
    expect(longHandlers).toEqual([]);
    expect(longLib.length).toBeLessThanOrEqual(3);
    expect(overCeiling).toEqual([]);
  });

  it('keeps folders small enough to say which files belong together', () => {
    // Act
    const perFolder = new Map<string, number>();
    for (const file of sourceFiles) perFolder.set(dirname(file), (perFolder.get(dirname(file)) ?? 0) + 1);
    const crowded = [...perFolder]
      .filter(([, count]) => count > FOLDER_FILE_CEILING)
      .map(([folder]) => folder);

    // Assert
    expect(crowded).toEqual([]);
  });
});
