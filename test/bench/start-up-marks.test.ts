/**
 * Scenario: the start-up marks preload (bench/start-up-marks.cjs) in a child Node that reads a
 * `.cjs` file, makes one request to a local server and exits: it appends one JSON line whose
 * phases come in order, each later than Node's start, and it loads no `node:http` of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'start-up-marks.cjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'start-up-marks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` (CommonJS, beside a `bundle.cjs`) with the preload: the marks it appended, and its stdout. */
function run(script: string): { marks: [string, number, number][]; stdout: string } {
  const file = join(dir, 'script.js');
  writeFileSync(file, script);
  writeFileSync(join(dir, 'bundle.cjs'), '');
  const marks = join(dir, 'marks.jsonl');
  const child = spawnSync(process.execPath, ['-r', PRELOAD, file], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', START_UP_MARKS: marks },
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return {
    marks: JSON.parse(readFileSync(marks, 'utf8')) as [string, number, number][],
    stdout: child.stdout,
  };
}

describe('start-up-marks preload', () => {
  it('marks the bundle read, the first request and its answer, in order', () => {
    // Arrange
    const script = `
      require('node:fs').readFileSync(require('node:path').join(__dirname, 'bundle.cjs'));
      const http = require('node:http');
      const server = http.createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1', () => {
        const url = 'http://127.0.0.1:' + server.address().port + '/';
        http.request(url, (res) => res.resume().on('end', () => server.close())).end();
      });`;

    // Act
    const { marks } = run(script);

    // Assert
    expect(marks.map(([name]) => name)).toEqual([
      'Node started',
      'shim loaded, bundle read',
      'first request sent',
      'first answer',
      'exit',
    ]);
    const walls = marks.map(([, wall]) => wall);
    expect(walls).toEqual([...walls].sort((a, b) => a - b));
    expect(marks.every(([, wall, cpu]) => wall > 0 && cpu > 0)).toBe(true);
  });

  it('loads no node:http when the run makes no request', () => {
    // Act
    const { marks, stdout } = run(
      "process.stdout.write(String(process.moduleLoadList.includes('NativeModule http')));",
    );

    // Assert
    expect(stdout).toBe('false');
    expect(marks.map(([name]) => name)).toEqual(['Node started', 'exit']);
  });
});
