/**
 * How reachable-code.ts follows a property read to the members it can run: a read whose property
 * no class or interface declares reaches the members of that name only on a value of a fitting
 * type, and by name alone only on a value the compiler cannot type; a factory's local function
 * runs only once called (directly, or as the member the factory returns it as).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { reachableCode } from './helpers/reachable-code';

/**
 * A store whose `status` method runs `askAws` (as runStatusFromEnv's does), and a record type
 * with a `status` field of its own; the entry reads `<receiver>.status`.
 */
const STORE = `
export type Outcome = { readonly status: 'done' | 'failed' };
export function makeReader() {
  return { status: async (id: string) => askAws(id) };
}
export function askAws(id: string): string {
  return id;
}
`;

/** Whether `askAws` is reachable from `entry`, a file beside `store` (`./store`). */
function reachesAskAws(store: string, entry: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'reachable-code-'));
  try {
    writeFileSync(join(dir, 'store.ts'), store);
    writeFileSync(join(dir, 'entry.ts'), entry);
    const program = ts.createProgram({
      rootNames: [join(dir, 'entry.ts')],
      options: {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      },
    });
    const { units } = reachableCode(program, join(dir, 'entry.ts'));
    return [...units].some((unit) => ts.isFunctionDeclaration(unit) && unit.name?.text === 'askAws');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An entry that reads `status` on `receiver` (an Outcome, or an untyped `loose`). */
const readingStatusOn = (receiver: string) => `import { makeReader, type Outcome } from './store';
export const reader = makeReader();
export function read(outcome: Outcome | undefined, loose: any) {
  return ${receiver}.status;
}
`;

/** A factory (as createStepKit) returning a local function `load` that runs `askAws`, and `now`. */
const KIT = `
export function makeKit() {
  const load = (key: string) => askAws(key);
  return { now: () => 0, load };
}
export function askAws(id: string): string {
  return id;
}
`;

describe('reachableCode', () => {
  it("does not reach a store's method from a record's field of the same name", () => {
    // Act
    const reached = reachesAskAws(STORE, readingStatusOn('outcome?'));

    // Assert: an Outcome's `status` is a string, never the reader's `status` method.
    expect(reached).toBe(false);
  });

  it('reaches every member of that name from a value the compiler cannot type', () => {
    // Act
    const reached = reachesAskAws(STORE, readingStatusOn('loose'));

    // Assert
    expect(reached).toBe(true);
  });

  it('does not run a local function of a factory that nothing calls', () => {
    // Act
    const reached = reachesAskAws(
      KIT,
      "import { makeKit } from './store';\nexport const t = makeKit().now();\n",
    );

    // Assert: the kit is built, but only `now` is called.
    expect(reached).toBe(false);
  });

  it('runs a local function of a factory once its member is called', () => {
    // Act
    const reached = reachesAskAws(
      KIT,
      "import { makeKit } from './store';\nexport const v = makeKit().load('k');\n",
    );

    // Assert
    expect(reached).toBe(true);
  });
});
