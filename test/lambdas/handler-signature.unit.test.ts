// Scenario: the nodejs24.x runtime refuses a callback-style handler at init, before any of its
// code runs. The runtime interface client tells the two styles apart by the exported function
// alone: three parameters and not an async function is the `(event, context, callback)` form
// (aws-lambda-nodejs-runtime-interface-client, `checkForDeprecatedCallback`; see
// https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html). Every handler the stack
// deploys is checked against that rule as the runtime would load it, and run once to show the
// promise is what carries its answer.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';

const LAMBDAS_DIR = join(import.meta.dirname, '..', '..', 'lambdas');
const HANDLER_FILES = readdirSync(LAMBDAS_DIR).filter((name) => name.endsWith('.ts'));

/** What the runtime takes for a callback-style handler. */
const isCallbackStyle = (fn: (...args: never[]) => unknown): boolean =>
  fn.length === 3 && fn.constructor.name !== 'AsyncFunction';

describe('the deployed handlers on nodejs24.x', () => {
  it('finds every handler file', () => {
    // Assert: a rename of the folder must not leave the check below with nothing to check.
    expect(HANDLER_FILES.length).toBeGreaterThanOrEqual(18);
  });

  it.each(HANDLER_FILES)('exports %s as an async (event, context) handler', async (file) => {
    // Arrange
    const module = (await import(join(LAMBDAS_DIR, file))) as { handler?: unknown };

    // Act
    const { handler } = module;

    // Assert
    expect(typeof handler).toBe('function');
    const fn = handler as (...args: never[]) => unknown;
    expect(isCallbackStyle(fn)).toBe(false);
    expect(fn.constructor.name).toBe('AsyncFunction');
  });

  it('tells a callback-style handler apart as the runtime does (the rule above can fail)', () => {
    // Arrange
    const callbackStyle = (
      _event: unknown,
      _context: Context,
      callback: (e: null, r: string) => void,
    ): void => callback(null, 'done');

    // Act / Assert
    expect(isCallbackStyle(callbackStyle as (...args: never[]) => unknown)).toBe(true);
  });

  it('runs a middy handler with a before hook and answers through its promise', async () => {
    // Arrange
    const seen: string[] = [];
    const handler = middy(async (event: { name: string }) => ({ greeting: `hello ${event.name}` })).use({
      before: async (request) => {
        seen.push(`before:${(request.event as { name: string }).name}`);
      },
    });

    // Act
    const result = await handler({ name: 'nomad' }, {} as Context);

    // Assert
    expect(result).toEqual({ greeting: 'hello nomad' });
    expect(seen).toEqual(['before:nomad']);
  });
});
