/**
 * The handlers' logger under Lambda's JSON log format: the runtime then wraps what goes through
 * the global `console` in a JSON object of its own; the logger's lines must reach stdout as one
 * JSON object each, never wrapped as the `message` string of another.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

describe('the handlers logger with the JSON log format', () => {
  const saved = Object.fromEntries(CONSOLE_METHODS.map((m) => [m, console[m]]));
  const env = { ...process.env };
  let written: string[];

  beforeEach(() => {
    // Arrange: what the Node.js runtime does with LoggingConfig.LogFormat JSON: console.* writes
    // {"timestamp","level","requestId","message"} with the arguments formatted as a string.
    for (const m of CONSOLE_METHODS) {
      console[m] = (...args: unknown[]) => {
        process.stdout.write(`${JSON.stringify({ level: m.toUpperCase(), message: args.join(' ') })}\n`);
      };
    }
    // As on Lambda: no dev mode (which would log through the global console), level INFO.
    delete process.env['POWERTOOLS_DEV'];
    process.env['POWERTOOLS_LOG_LEVEL'] = 'INFO';
    process.env['AWS_LAMBDA_LOG_LEVEL'] = 'INFO';
    written = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    jest.resetModules();
  });

  afterEach(() => {
    jest.restoreAllMocks();
    Object.assign(console, saved);
    process.env = env;
  });

  it('writes each line as one JSON object with its fields at the top, not inside a message string', async () => {
    // Arrange
    const { logger } = await import('../../../lambdas/private/logger');

    // Act
    logger.info('Job lock', { jobId: 'web', outcome: 'taken' });

    // Assert
    const lines = written.join('').trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'INFO', message: 'Job lock', jobId: 'web', outcome: 'taken' });
    expect(entry['service']).toBe('nomad-restart');
  });
});
