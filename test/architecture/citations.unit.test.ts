/**
 * Comments cite only what a maintainer of this repository can open: Nomad's source (file and
 * function), an AWS documentation page, or a docs/ file here. The design notes and the behaviour
 * write-up this project started from live outside the repository, so a comment that points at
 * them (by section sign, by file name, or by the path beside the checkout) sends the reader
 * nowhere. The patterns are built from pieces so that this file does not cite them itself.
 * What a comment cites inside the repository must be there: each docs/ file it names, and each
 * README section it names by its heading, so that moving text between the README and docs/ moves
 * its citations too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** The README's section headings, without their `#` marks (a shell comment in a code block is none). */
function readmeHeadings(readme: string): string[] {
  const prose = readme.replace(/^```[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/^#+ (.+)$/gm)].map((match) => match[1] ?? '');
}

/**
 * `file: citation` for each docs/ file or README section a comment of `source` cites that is not
 * there. A README section may be cited by the start of its heading (`README, "Differences"`).
 */
function missingCitations(
  file: string,
  source: string,
  exists: (path: string) => boolean,
  headings: readonly string[],
): string[] {
  return commentsOf(file, source).flatMap((comment) => {
    const text = comment.replace(/^\s*(\/\/|\/?\*+\/?)/gm, ' ').replace(/\s+/g, ' ');
    const docs = [...text.matchAll(/docs\/[\w.-]+\.md/g)]
      .map((match) => match[0])
      .filter((doc) => !exists(doc));
    const sections = [...text.matchAll(/README(?:, |'s )"([^"]+)"/g)]
      .map((match) => match[1] ?? '')
      .filter((section) => !headings.some((heading) => heading.startsWith(section)))
      .map((section) => `README, "${section}"`);
    return [...docs, ...sections].map((citation) => `${file}: ${citation}`);
  });
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

  it('cite docs/ files and README sections that are there', () => {
    // Arrange
    const files = FOLDERS.flatMap(sourceFiles);
    const headings = readmeHeadings(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    const exists = (path: string) => existsSync(join(ROOT, path));

    // Act
    const missing = files.flatMap((file) =>
      missingCitations(file, readFileSync(join(ROOT, file), 'utf8'), exists, headings),
    );

    // Assert
    expect(headings).toContain('Differences from nomad job restart');
    expect(headings).not.toContain('in place, two allocations at a time, no questions');
    expect(missing).toEqual([]);
  });

  it('that cite a missing docs/ file or README section are found (the check itself)', () => {
    // Arrange
    const source = [
      '/** Where a run ends (docs/there.md; docs/gone.md). */',
      'export const a = 1; // README, "Differences from',
      '// nomad job restart" and README\'s "Usage"',
      '/* README, "Benchmarks" */ export const b = \'docs/string.md\';',
    ].join('\n');
    const exists = (path: string) => path === 'docs/there.md';
    const headings = ['Usage', 'Differences from nomad job restart'];

    // Act
    const missing = missingCitations('sample.ts', source, exists, headings);

    // Assert
    expect(missing).toEqual(['sample.ts: docs/gone.md', 'sample.ts: README, "Benchmarks"']);
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
