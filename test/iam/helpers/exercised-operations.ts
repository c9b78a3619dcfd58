/**
 * Which IAM actions each function made under the IAM check, across every IAM-checked test file
 * (those that load emulated-aws.ts). Jest runs each file in its own worker, so each such file
 * writes what its functions did when it ends ({@link recordExercised}), under a directory named
 * after a fingerprint of the sources: a record is used only while no source changed since. A file
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

function filesUnder(root: string, directory: string): string[] {
  const here = join(root, directory);
  if (!existsSync(here)) return [];
  return readdirSync(here, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

let fingerprint: string | undefined;

/**
 * A hash of every source an IAM-checked file's calls depend on: the handlers, lib/, the lock file,
 * and the IAM-checked test files with every test file they import.
 */
export function sourceFingerprint(root: string): string {
  if (fingerprint !== undefined) return fingerprint;
  const { files: checked, imports } = testImports(root);
  const tests = new Set<string>();
  const add = (file: string) => {
    if (tests.has(file) || !imports.has(file)) return;
    tests.add(file);
    for (const next of imports.get(file) ?? []) add(next);
  };
  for (const file of checked) add(file);
  const hash = createHash('sha256');
  const files = [
    ...['lambdas', 'lib'].flatMap((d) => filesUnder(root, d)),
    ...tests,
    'package-lock.json',
  ].sort();
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  fingerprint = hash.digest('hex').slice(0, 16);
  return fingerprint;
}

const recordDirectory = (root: string) =>
  join(tmpdir(), 'nomad-restart-iam-exercised', sourceFingerprint(root));
const recordFile = (root: string, testFile: string) =>
  join(recordDirectory(root), `${testFile.replaceAll('/', '__')}.json`);

/** Writes what the functions of `testFile` (absolute) did under the IAM check. */
export function recordExercised(root: string, testFile: string, actions: ExercisedActions): void {
  const file = relative(root, testFile);
  mkdirSync(recordDirectory(root), { recursive: true });
  writeFileSync(recordFile(root, file), JSON.stringify({ file, actions } satisfies ExercisedRecord));
}

/** Each test file's relative imports, and the test files that load emulated-aws.ts through them. */
function testImports(root: string): { files: string[]; imports: Map<string, string[]> } {
  const imports = new Map<string, string[]>();
  for (const file of filesUnder(root, 'test')) {
    const text = readFileSync(join(root, file), 'utf8');
    const specifiers = [...text.matchAll(/from '(\.[^']+)'/g)].map((m) => m[1] as string);
    imports.set(
      file,
      specifiers.map(
        (s) => relative(root, resolve(root, dirname(file), s)) + (s.endsWith('.ts') ? '' : '.ts'),
      ),
    );
  }
  const reaches = (file: string, seen: Set<string>): boolean => {
    if (file === EMULATED_AWS) return true;
    if (seen.has(file)) return false;
    seen.add(file);
    return (imports.get(file) ?? []).some((next) => reaches(next, seen));
  };
  const files = [...imports.keys()].filter((f) => f.endsWith('.test.ts') && reaches(f, new Set())).sort();
  return { files, imports };
}

/** The test files that run under the IAM check: those whose static imports reach emulated-aws.ts. */
export function iamCheckedTestFiles(root: string): string[] {
  return testImports(root).files;
}

/** This process's environment less jest's worker marker (the child is a jest of its own). */
function childEnvironment(): NodeJS.ProcessEnv {
  const { JEST_WORKER_ID: _, ...env } = process.env;
  return env;
}

/**
 * What every IAM-checked test file exercised, running in a child jest the files that have no
 * fresh record.
 * @throws Error when a file still has no record after its run (it failed before its end)
 */
export function exercisedOperations(root: string): ExercisedRecord[] {
  const files = iamCheckedTestFiles(root);
  const missing = files.filter((f) => !existsSync(recordFile(root, f)));
  if (missing.length > 0) {
    const jest = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--no-warnings=ExperimentalWarning',
        'node_modules/jest/bin/jest.js',
        '--selectProjects',
        'integration',
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
