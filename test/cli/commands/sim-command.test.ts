/**
 * `nomad-restart sim`: serves the demo on 127.0.0.1 until stopped, and refuses bad flags with
 * the command parser's Go messages before starting anything.
 */
import { createServer, type Server } from 'node:net';
import { PassThrough } from 'node:stream';
import { runSimCommand } from '../../../lib/cli/commands/sim-command';
import type { JobListStub } from '../../../lib/nomad/types';
import { get } from '../../sim/helpers/http';

/** A TCP listener on 127.0.0.1:`port` (0: a free one), or undefined when `port` is taken already. */
async function hold(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server): number => (server.address() as { port: number }).port;
const release = (server: Server | undefined): Promise<void> =>
  new Promise((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));

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

  it('starts beside a Consul agent on 8500 and prints the free port its Consul took', async () => {
    // Arrange: 8500 taken, by this test or by whatever already listens there (an agent, say).
    const agent = await hold(8500);
    const streams = io();
    const aborter = new AbortController();

    // Act
    const exit = runSimCommand(['-port=0'], {
      stdout: streams.stdout,
      stderr: streams.stderr,
      signal: aborter.signal,
    });
    while (streams.text.out.split('\n').length < 3 && streams.text.err === '') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const consulAddress = /Consul simulator listening on (\S+)/.exec(streams.text.out)?.[1] ?? '';
    const leader =
      consulAddress === '' ? undefined : await get<unknown[]>(consulAddress, '/v1/health/checks/web');
    aborter.abort();
    const code = await exit;
    await release(agent);

    // Assert
    expect(streams.text.err).toBe('');
    expect(consulAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(consulAddress).not.toBe('http://127.0.0.1:8500');
    expect(leader?.status).toBe(200);
    expect(code).toBe(0);
  });

  it('refuses a taken -consul-port by name and frees the Nomad port it had taken', async () => {
    // Arrange
    const taken = await hold(0);
    const spare = await hold(0);
    if (taken === undefined || spare === undefined) throw new Error('no free port on 127.0.0.1');
    const [nomadPort, consulPort] = [portOf(spare), portOf(taken)];
    await release(spare);
    const streams = io();

    // Act
    const code = await runSimCommand([`-port=${nomadPort}`, `-consul-port=${consulPort}`], {
      stdout: streams.stdout,
      stderr: streams.stderr,
    });
    const nomadPortAgain = await hold(nomadPort);
    await Promise.all([release(taken), release(nomadPortAgain)]);

    // Assert
    expect(code).toBe(1);
    expect(streams.text.err).toBe(
      `Error starting simulator: Consul simulator cannot listen on 127.0.0.1:${consulPort}: the port is already in use; give -consul-port another port, or leave it out for a free one\n`,
    );
    expect(streams.text.out).toBe('');
    expect(nomadPortAgain).toBeDefined();
  });

  it('refuses a taken -port by name', async () => {
    // Arrange
    const taken = await hold(0);
    if (taken === undefined) throw new Error('no free port on 127.0.0.1');
    const port = portOf(taken);
    const streams = io();

    // Act
    const code = await runSimCommand([`-port=${port}`], { stdout: streams.stdout, stderr: streams.stderr });
    await release(taken);

    // Assert
    expect(code).toBe(1);
    expect(streams.text.err).toBe(
      `Error starting simulator: Nomad simulator cannot listen on 127.0.0.1:${port}: the port is already in use; give -port another port, or -port=0 for a free one\n`,
    );
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
