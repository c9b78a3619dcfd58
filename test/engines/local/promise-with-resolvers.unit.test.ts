import '../../../lib/engines/local/private/promise-with-resolvers';

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason?: unknown) => void;
}

const withResolvers = <T>(): Resolvers<T> =>
  (Promise as unknown as { withResolvers: <U>() => Resolvers<U> }).withResolvers<T>();

describe('Promise.withResolvers polyfill', () => {
  it('resolves the promise it hands out', async () => {
    // Arrange
    const { promise, resolve } = withResolvers<string>();

    // Act
    resolve('done');

    // Assert
    await expect(promise).resolves.toBe('done');
  });

  it('rejects the promise it hands out', async () => {
    // Arrange
    const { promise, reject } = withResolvers<string>();

    // Act
    reject(new Error('timed out'));

    // Assert
    await expect(promise).rejects.toThrow('timed out');
  });
});
