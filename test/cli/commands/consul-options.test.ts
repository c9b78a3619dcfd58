// Scenario: the command's Consul settings for -wait-healthy (`-consul-address`, `-consul-token`,
// the CONSUL_* variables), through the real command front end against the simulator: bad settings
// stop it in Consul's CLI's words before Nomad is asked anything; `-dry-run` shows the Consul reads
// the gate would make without making them; and each token goes only to its own server.

import { runCommand } from '../../e2e/helpers/run-command';
import { consulJob } from '../../steps/health/helpers/consul-fixtures';
import { type Harness, startHarness, waitAllRunning } from '../../steps/helpers/harness';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const GATE = ['-wait-healthy', '-min-healthy-time=100ms', '-healthy-deadline=20s', '-yes'];

describe('nomad-restart -wait-healthy with Consul settings', () => {
  it.each([
    {
      name: 'a malformed CONSUL_HTTP_ADDR',
      env: { CONSUL_HTTP_ADDR: 'unix:///var/run/consul.sock' },
      expectedErr: 'Error connecting to Consul agent: unix sockets are not supported',
    },
    {
      name: 'an unreadable CONSUL_HTTP_TOKEN_FILE',
      env: { CONSUL_HTTP_TOKEN_FILE: '/nonexistent/consul-token' },
      expectedErr: 'Error connecting to Consul agent: Error loading token file /nonexistent/consul-token',
    },
  ])('stops on $name before Nomad is asked anything', async ({ env, expectedErr }) => {
    // Arrange
    const job = consulJob('web', 1);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 1);
    const before = h.sim.control.requestLog().length;

    // Act
    const result = await runCommand([...GATE, job.ID], { NOMAD_ADDR: h.sim.address, ...env });

    // Assert
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expectedErr);
    expect(h.sim.control.requestLog()).toHaveLength(before);
    expect(h.sim.consul.control.requestLog()).toEqual([]);
  });

  it('shows the Consul reads in -dry-run and makes none', async () => {
    // Arrange
    const job = consulJob('web', 2);
    h = await startHarness({ jobs: [job] });
    await waitAllRunning(h, job.ID, 2);

    // Act
    const result = await runCommand(['-dry-run', ...GATE, job.ID], {
      NOMAD_ADDR: h.sim.address,
      CONSUL_HTTP_ADDR: h.sim.consul.address,
    });

    // Assert
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Consul: GET /v1/health/checks/web-web (once before the first batch: Consul answers, the token reads it)',
    );
    expect(result.stdout).toContain(
      'Consul: GET /v1/health/checks/web-web?index=<n> (blocking: the checks of every allocation of the batch)',
    );
    expect(h.sim.consul.control.requestLog()).toEqual([]);
  });

  it('sends the Consul token to Consul only, and the Nomad token to Nomad only', async () => {
    // Arrange: each server answers only its own token (403 to any other).
    const job = consulJob('web', 1);
    h = await startHarness(
      { jobs: [job], acl: { enabled: true, tokens: [{ secret: 'nomad-secret', management: true }] } },
      { token: 'nomad-secret' },
    );
    await waitAllRunning(h, job.ID, 1);
    h.sim.consul.control.configureAcl({
      enabled: true,
      tokens: [{ secret: 'consul-secret', management: true }],
    });
    const nomadBefore = h.sim.control.requestLog().length;

    // Act
    const result = await runCommand([...GATE, '-consul-token=consul-secret', job.ID], {
      NOMAD_ADDR: h.sim.address,
      NOMAD_TOKEN: 'nomad-secret',
      CONSUL_HTTP_ADDR: h.sim.consul.address,
    });

    // Assert: both answered every request (a wrong token is refused), and their logs mark each
    // request as carrying a token (never the token itself).
    expect(result.code).toBe(0);
    const consul = h.sim.consul.control.requestLog();
    expect(consul.length).toBeGreaterThan(0);
    expect(consul.every((r) => r.token === 'redacted')).toBe(true);
    const nomad = h.sim.control.requestLog().slice(nomadBefore);
    expect(nomad.every((r) => r.token === 'redacted' && r.status !== 403)).toBe(true);
    expect(consul.every((r) => r.status === 200)).toBe(true);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/consul-secret|nomad-secret/);
  });
});
