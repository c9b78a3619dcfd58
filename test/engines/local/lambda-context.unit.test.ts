/**
 * The Lambda context of a local invocation: a request id of its own for each, made without Web
 * Crypto, whose first use loads a module of Node's that nothing else in a run needs.
 */
import { lambdaContext } from '../../../lib/engines/local/lambda-context';

describe('lambdaContext', () => {
  const webCrypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  afterEach(() => {
    if (webCrypto !== undefined) Object.defineProperty(globalThis, 'crypto', webCrypto);
  });

  it('gives each invocation its own request id without touching the global Web Crypto', () => {
    // Arrange: a run that reached for `globalThis.crypto` would throw here
    Object.defineProperty(globalThis, 'crypto', {
      configurable: true,
      get: () => {
        throw new Error('globalThis.crypto read');
      },
    });

    // Act
    const first = lambdaContext('lock-job', 60_000);
    const second = lambdaContext('lock-job', 60_000);

    // Assert
    expect(first.awsRequestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(second.awsRequestId).not.toBe(first.awsRequestId);
    expect(first.functionName).toBe('lock-job');
  });
});
