/**
 * How reachable-code.ts follows a property read to the members it can run: a read whose property
 * no class or interface declares reaches the members of that name only on a value of a fitting
 * type, and by name alone only on a value the compiler cannot type.
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

/** Whether `askAws` is reachable from an entry that reads `status` on `receiver`. */
function reachesAskAws(receiver: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'reachable-code-'));
  try {
    writeFileSync(join(dir, 'store.ts'), STORE);
    writeFileSync(
      join(dir, 'entry.ts'),
      `import { makeReader, type Outcome } from './store';
export const reader = makeReader();
export function read(outcome: Outcome | undefined, loose: any) {
  return ${receiver}.status;
}
`,
    );
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

describe('reachableCode', () => {
  it("does not reach a store's method from a record's field of the same name", () => {
    // Act
    const reached = reachesAskAws('outcome?');

    // Assert: an Outcome's `status` is a string, never the reader's `status` method.
    expect(reached).toBe(false);
  });

  it('reaches every member of that name from a value the compiler cannot type', () => {
    // Act
    const reached = reachesAskAws('loose');

    // Assert
    expect(reached).toBe(true);
  });
});
