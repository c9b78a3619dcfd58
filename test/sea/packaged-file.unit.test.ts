import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPackagedFile, SEA_ROOT, seaAssetKey } from '../../lib/sea/packaged-file';

describe('seaAssetKey', () => {
  it('keys a file below the executable’s root by its path from it', () => {
    // Act
    const key = seaAssetKey(`${SEA_ROOT}/dist/local-definition.json`);

    // Assert
    expect(key).toBe('dist/local-definition.json');
  });

  it('keys a path with `..` in it by where it leads', () => {
    // Act
    const key = seaAssetKey(`${SEA_ROOT}/lib/engines/local/../../../sim/scenarios/demo.json`);

    // Assert
    expect(key).toBe('sim/scenarios/demo.json');
  });

  it.each([
    ['a file a user names', '/home/ops/scenario.json'],
    ['a path that leaves the root', `${SEA_ROOT}/../etc/passwd`],
    ['a folder beside the root with its name as prefix', `${SEA_ROOT}-other/demo.json`],
    ['the root itself', SEA_ROOT],
  ])('gives no key for %s', (_what, path) => {
    // Act
    const key = seaAssetKey(path);

    // Assert
    expect(key).toBeUndefined();
  });
});

describe('readPackagedFile', () => {
  it('reads a file from disk outside the single executable', () => {
    // Arrange
    const dir = mkdtempSync(join(tmpdir(), 'packaged-file-'));
    const path = join(dir, 'demo.json');
    writeFileSync(path, '{"jobs":[]}');

    try {
      // Act
      const text = readPackagedFile(path);

      // Assert
      expect(text).toBe('{"jobs":[]}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails as readFileSync does outside the single executable, even below its root', () => {
    // Act
    const read = () => readPackagedFile(`${SEA_ROOT}/dist/local-definition.json`);

    // Assert
    expect(read).toThrow(/ENOENT/);
  });
});
