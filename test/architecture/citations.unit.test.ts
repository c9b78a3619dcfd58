/**
 * Comments cite only what a maintainer of this repository can open: Nomad's source (file and
 * function), an AWS documentation page, or a docs/ file here. The design notes and the behaviour
 * write-up this project started from live outside the repository, so a comment that points at
 * them (by section sign, by file name, or by the path beside the checkout) sends the reader
 * nowhere. The patterns are built from pieces so that this file does not cite them itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const FOLDERS = ['lib', 'lambdas', 'bin', 'sim', 'test', 'bench'];

/** Citations of documents outside the repository. */
const OUTSIDE_CITATIONS: readonly string[] = [
  ['spec', '§'].join(' '),
  ['DESIGN', 'md'].join('.'),
  ['..', 'shared'].join('/'),
];

/** Every .ts and .js file under `folder`, relative to the repository root. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length + 1))
    .filter((file) => !file.split('/').includes('node_modules'));
}

/** The text of every comment in `source` (line, block and TSDoc), found by the TypeScript parser. */
function commentsOf(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, source.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(source, node.pos));
    collect(ts.getTrailingCommentRanges(source, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...seen.values()];
}

/** `file:citation` for each comment of `source` that cites a document outside the repository. */
function outsideCitations(file: string, source: string): string[] {
  return commentsOf(file, source).flatMap((comment) =>
    OUTSIDE_CITATIONS.filter((citation) => comment.includes(citation)).map(
      (citation) => `${file}: ${citation}`,
    ),
  );
}

describe('comments', () => {
  it('cite nothing outside the repository', () => {
    // Arrange
    const files = FOLDERS.flatMap(sourceFiles);

    // Act
    const found = files.flatMap((file) => outsideCitations(file, readFileSync(join(ROOT, file), 'utf8')));

    // Assert
    expect(files.length).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('are told apart from code and strings (the check itself)', () => {
    // Arrange
    const [section, design, shared] = OUTSIDE_CITATIONS;
    const source = [
      `/** Batch arithmetic (${section}2.5). */`,
      `export const a = '${design}'; // from ${shared}`,
      `const b = \`${section}1 // not a comment\`;`,
      `/* ${design} */ export function c() {}`,
    ].join('\n');

    // Act
    const found = outsideCitations('sample.ts', source);

    // Assert
    expect(found).toEqual([`sample.ts: ${section}`, `sample.ts: ${shared}`, `sample.ts: ${design}`]);
  });
});
