/**
 * `nomad-restart sim`: serves the demo on 127.0.0.1 until stopped, and refuses bad flags with
 * the command parser's Go messages before starting anything.
 */
import { PassThrough } from 'node:stream';
import { runSimCommand } from '../../../lib/cli/commands/sim-command';
import type { JobListStub } from '../../../lib/nomad/types';
import { get } from '../../sim/helpers/http';

describe('runSimCommand', () => {
  const io = () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const text = { out: '', err: '' };
    stdout.on('data', (c: Buffer) => {
      text.out += c.toString();
    });
    stderr.on('data', (c: Buffer) => {
      text.err += c.toString();
    });
    return { stdout, stderr, text };
  };

  it('prints the listening line, serves the demo and exits 0 when stopped', async () => {
    // Arrange
    const streams = io();
    const aborter = new AbortController();

    // Act
    const exit = runSimCommand(['-port=0', '-consul-port=0'], {
      stdout: streams.stdout,
      stderr: streams.stderr,
      signal: aborter.signal,
    });
    while (streams.text.out.split('\n').length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const address = /Nomad simulator listening on (\S+)/.exec(streams.text.out)?.[1] ?? '';
    const consulAddress = /Consul simulator listening on (\S+)/.exec(streams.text.out)?.[1] ?? '';
    const jobs = (await get<JobListStub[]>(address, '/v1/jobs')).json;
    const checks = await get<unknown[]>(consulAddress, '/v1/health/checks/web');
    aborter.abort();

    // Assert
    expect(streams.text.out).toMatch(
      /^Nomad simulator listening on http:\/\/127\.0\.0\.1:\d+\nConsul simulator listening on http:\/\/127\.0\.0\.1:\d+\n$/,
    );
    expect(jobs.map((j) => j.ID)).toEqual(['example', 'node-monitor']);
    expect(checks.status).toBe(200);
    expect(checks.headers.get('X-Consul-Index')).toMatch(/^\d+$/);
    expect(await exit).toBe(0);
  });

  it.each([
    { args: ['-port', 'x'], err: 'invalid value "x" for flag -port: must be a port number' },
    {
      args: ['-consul-port', '70000'],
      err: 'invalid value "70000" for flag -consul-port: must be a port number',
    },
    { args: ['-bogus'], err: 'flag provided but not defined: -bogus' },
    { args: ['-empty', '-scenario', 'f.json'], err: 'The -empty option cannot be used with -scenario' },
    {
      args: ['-scenario=/nonexistent/s.json'],
      err: 'Error starting simulator: Cannot read scenario file "/nonexistent/s.json"',
    },
  ])('fails with exit 1 for $args', async ({ args, err }) => {
    // Arrange
    const streams = io();

    // Act
    const code = await runSimCommand(args, { stdout: streams.stdout, stderr: streams.stderr });

    // Assert
    expect(code).toBe(1);
    expect(streams.text.err).toContain(err);
    expect(streams.text.out).toBe('');
  });
});
