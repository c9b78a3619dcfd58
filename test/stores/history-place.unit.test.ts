import { historyPath, placeOfPath } from '../../lib/stores/history-place';

describe('placeOfPath', () => {
  it.each([
    { name: 'a plain job ID', jobId: 'web' },
    { name: 'an ID with a slash, a space and non-ASCII', jobId: 'api/v2 é' },
    { name: 'an ID with a tilde', jobId: 'a~b' },
  ])('reads back $name from its history’s path', ({ jobId }) => {
    // Arrange
    const path = historyPath({ namespace: 'prod', jobId });

    // Act
    const place = placeOfPath('prod', path);

    // Assert
    expect(place).toEqual({ namespace: 'prod', jobId });
  });

  it('reads back the fleets’ history', () => {
    // Act
    const place = placeOfPath('prod', historyPath({ namespace: 'prod', fleets: true }));

    // Assert
    expect(place).toEqual({ namespace: 'prod', fleets: true });
  });

  it('names no job for an ID too long for a path, whose path ends in a hash', () => {
    // Arrange
    const path = historyPath({ namespace: 'default', jobId: 'x'.repeat(200) });

    // Act
    const place = placeOfPath('default', path);

    // Assert
    expect(path).toHaveLength(128);
    expect(place).toEqual({ namespace: 'default', jobId: undefined });
  });

  it.each([
    { name: 'a path outside the histories', path: 'nomad-restart/locks/web' },
    { name: 'a tilde not followed by a byte in hex', path: 'nomad-restart/history/a~zz' },
    { name: 'a byte encoded that needs no encoding', path: 'nomad-restart/history/~61' },
    { name: 'bytes that are not UTF-8', path: 'nomad-restart/history/~ff' },
    { name: 'the prefix alone', path: 'nomad-restart/history/' },
  ])('refuses $name, which no run wrote', ({ path }) => {
    // Act
    const place = placeOfPath('default', path);

    // Assert
    expect(place).toBeUndefined();
  });
});
