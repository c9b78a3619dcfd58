/**
 * Which IAM actions each function made under the IAM check, across every IAM-checked test file
 * (those that load emulated-aws.ts). Jest runs each file in its own worker, so each such file
 * writes what its functions did when it ends ({@link recordExercised}), in a file named after a
 * fingerprint of the sources it depends on: a record is used only while none changed since. A file
 * without a fresh record (a fresh clone, an edit, the comparison test run alone) is run once more
 * in a child jest ({@link exercisedOperations}) so that its record is written.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

/** The IAM actions each function made in one test file, by function. */
export type ExercisedActions = Readonly<Record<string, readonly string[]>>;

/** What one IAM-checked file exercised. */
export interface ExercisedRecord {
  /** The test file, relative to the repository. */
  readonly file: string;
  readonly actions: ExercisedActions;
}

const EMULATED_AWS = 'test/iam/helpers/emulated-aws.ts';
/** Set in the child jest's environment. */
const CHILD = 'IAM_INVENTORY_CHILD';

function filesUnder(root: string, directory: string): string[] {
  const here = join(root, directory);
  if (!existsSync(here)) return [];
  return readdirSync(here, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

let shared: string | undefined;

/**
 * A hash of every source one IAM-checked file's calls depend on: the handlers, lib/, the lock
 * file, and the test file with every test file it imports (so an edit to one test file makes
 * only its own record stale).
 */
export function sourceFingerprint(root: string, testFile: string): string {
  if (shared === undefined) {
    const hash = createHash('sha256');
    const files = [...['lambdas', 'lib'].flatMap((d) => filesUnder(root, d)), 'package-lock.json'].sort();
    for (const file of files)
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(join(root, file)))
        .update('\0');
    shared = hash.digest('hex');
  }
  const { imports } = testImports(root);
  const tests = new Set<string>();
  const add = (file: string) => {
    if (tests.has(file) || !imports.has(file)) return;
    tests.add(file);
    for (const next of imports.get(file) ?? []) add(next);
  };
  add(testFile);
  const hash = createHash('sha256').update(shared);
  for (const file of [...tests].sort())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

const recordDirectory = join(tmpdir(), 'nomad-restart-iam-exercised');
const recordFile = (root: string, testFile: string) =>
  join(recordDirectory, `${testFile.replaceAll('/', '__')}-${sourceFingerprint(root, testFile)}.json`);

/** Writes what the functions of `testFile` (absolute) did under the IAM check. */
export function recordExercised(root: string, testFile: string, actions: ExercisedActions): void {
  const file = relative(root, testFile);
  mkdirSync(recordDirectory, { recursive: true });
  writeFileSync(recordFile(root, file), JSON.stringify({ file, actions } satisfies ExercisedRecord));
}

/**
 * Each test file's relative imports, and the test files that install the IAM check: those that
 * call `useEmulatedAws()`, or a helper that calls it (`faultSuite()`), from a file they import.
 */
let scanned: { files: string[]; imports: Map<string, string[]> } | undefined;

function testImports(root: string): { files: string[]; imports: Map<string, string[]> } {
  scanned ??= scanTests(root);
  return scanned;
}

function scanTests(root: string): { files: string[]; imports: Map<string, string[]> } {
  const imports = new Map<string, string[]>();
  const texts = new Map<string, string>();
  for (const file of filesUnder(root, 'test')) {
    const text = readFileSync(join(root, file), 'utf8');
    texts.set(file, text);
    const specifiers = [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => m[1] as string);
    imports.set(
      file,
      specifiers.map(
        (s) => relative(root, resolve(root, dirname(file), s)) + (s.endsWith('.ts') ? '' : '.ts'),
      ),
    );
  }
  // The functions that install the check, by the file exporting them: emulated-aws.ts's, then
  // every exported function of a helper whose body calls one of them.
  const installers = new Map<string, string[]>([[EMULATED_AWS, ['useEmulatedAws']]]);
  const calls = (file: string) =>
    (imports.get(file) ?? [])
      .flatMap((next) => installers.get(next) ?? [])
      .filter((name) => (texts.get(file) ?? '').includes(`${name}(`));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, text] of texts) {
      if (file.endsWith('.test.ts') || installers.has(file) || calls(file).length === 0) continue;
      const exported = [...text.matchAll(/export (?:async )?function (\w+)\(/g)].map((m) => m[1] as string);
      const installing = exported.filter((name) => {
        const body = text.slice(text.indexOf(`function ${name}(`));
        const end = body.search(/\n}\n/);
        return calls(file).some((c) => body.slice(0, end).includes(`${c}(`));
      });
      if (installing.length > 0) {
        installers.set(file, installing);
        grew = true;
      }
    }
  }
  const files = [...imports.keys()].filter((f) => f.endsWith('.test.ts') && calls(f).length > 0).sort();
  return { files, imports };
}

/** The test files that run under the IAM check. */
export function iamCheckedTestFiles(root: string): string[] {
  return testImports(root).files;
}

/** This process's environment less jest's worker marker (the child is a jest of its own). */
function childEnvironment(): NodeJS.ProcessEnv {
  const { JEST_WORKER_ID: _, ...env } = process.env;
  return { ...env, [CHILD]: '1' };
}

/**
 * What every IAM-checked test file exercised, running in a child jest the files that have no
 * fresh record.
 * @throws Error when a file still has no record after its run (it failed before its end)
 */
export function exercisedOperations(root: string): ExercisedRecord[] {
  const files = iamCheckedTestFiles(root);
  const missing = files.filter((f) => !existsSync(recordFile(root, f)));
  // A child run never runs the comparison again: a file it could not record would loop.
  if (missing.length > 0 && process.env[CHILD] !== undefined) {
    throw new Error(`No fresh IAM record for ${missing.join(', ')} inside the child run that writes them`);
  }
  if (missing.length > 0) {
    const jest = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--no-warnings=ExperimentalWarning',
        'node_modules/jest/bin/jest.js',
        '--selectProjects',
        'integration',
        // Exact paths: patterns would be regular expressions.
        '--runTestsByPath',
        ...missing,
      ],
      { cwd: root, encoding: 'utf8', env: childEnvironment() },
    );
    const stillMissing = missing.filter((f) => !existsSync(recordFile(root, f)));
    if (stillMissing.length > 0) {
      throw new Error(
        `No IAM record for ${stillMissing.join(', ')} after running them (exit ${String(jest.status)}):\n${jest.stderr.slice(-4000)}`,
      );
    }
  }
  return files.map((f) => JSON.parse(readFileSync(recordFile(root, f), 'utf8')) as ExercisedRecord);
}
