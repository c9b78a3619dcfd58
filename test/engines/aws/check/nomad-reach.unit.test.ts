import { NOMAD_NETWORK_FIX, reachResults } from '../../../../lib/engines/aws/check/nomad-reach';
import type { ReachReport } from '../../../../lib/workflow/deployment-check-reach';

const ADDRESS = 'https://nomad.example.internal:4646';
const FOUND = {
  reached: true,
  job: 'web',
  namespace: 'default',
  type: 'service',
  status: 'running',
  allocations: 2,
} as const;
const report = (rest: Omit<ReachReport, 'nomadAddress'>): { report: ReachReport } => ({
  report: { nomadAddress: ADDRESS, ...rest },
});

describe('reachResults', () => {
  it('passes the job and the checks of its Consul service', () => {
    // Act
    const results = reachResults(
      report({ nomad: FOUND, consul: { reached: true, service: 'web-http', checks: 2 } }),
      { job: 'web' },
    );

    // Assert
    expect(results).toEqual([
      {
        passed: true,
        what: `the functions read job "web" from Nomad at "${ADDRESS}": a service job, status running, 2 allocations, in namespace "default"`,
      },
      {
        passed: true,
        what: 'the functions read the checks of Consul service "web-http" (of job "web"): 2 checks',
      },
    ]);
  });

  it('fails an unreachable Consul with its address as the fix', () => {
    // Act
    const [, consul] = reachResults(
      report({
        nomad: FOUND,
        consul: {
          reached: false,
          service: 'web-http',
          error: {
            name: 'ConsulUnreachableError',
            message: 'Consul at 127.0.0.1:8500 is unreachable: connect ECONNREFUSED 127.0.0.1:8500',
          },
        },
      }),
      { job: 'web' },
    );

    // Assert
    expect(consul).toMatchObject({
      passed: false,
      why: 'Consul at 127.0.0.1:8500 is unreachable: connect ECONNREFUSED 127.0.0.1:8500',
      fix: expect.stringContaining('-c consulAddress='),
    });
  });

  it('fails a Consul token refused with the README Consul policy as the fix', () => {
    // Act
    const [, consul] = reachResults(
      report({
        nomad: FOUND,
        consul: {
          reached: false,
          service: 'web-http',
          error: {
            name: 'ConsulTokenRefusedError',
            message: 'Consul refused the Consul token',
            statusCode: 403,
          },
        },
      }),
      { job: 'web' },
    );

    // Assert
    expect(consul).toMatchObject({ passed: false, fix: expect.stringContaining("README's Consul policy") });
  });

  it.each([
    { name: 'NomadTimeoutError', statusCode: undefined, fix: NOMAD_NETWORK_FIX },
    {
      name: 'NomadTlsError',
      statusCode: undefined,
      fix: "check the TLS secret (nomadTlsSecretArn: caCert, serverName) against Nomad's certificate",
    },
  ])('fails a $name with its fix', ({ name, statusCode, fix }) => {
    // Act
    const results = reachResults(
      report({
        nomad: {
          reached: false,
          error: {
            name,
            message: 'what the client said',
            ...(statusCode === undefined ? {} : { statusCode }),
          },
        },
      }),
      { job: 'web' },
    );

    // Assert
    expect(results).toEqual([
      {
        passed: false,
        what: `the functions read job "web" from Nomad at "${ADDRESS}"`,
        why: 'what the client said',
        fix,
      },
    ]);
  });

  it('fails a read step that failed, naming its error and the function to read the log of', () => {
    // Act
    const results = reachResults(
      { failed: { error: 'NomadSecretError', cause: 'Secret "arn:…" is empty or not a string' } },
      { job: 'web' },
    );

    // Assert
    expect(results).toEqual([
      {
        passed: false,
        what: 'the functions read job "web" from Nomad',
        why: 'the read step failed with NomadSecretError: Secret "arn:…" is empty or not a string',
        fix: expect.stringContaining('plan function'),
      },
    ]);
  });

  it('fails an execution that ran no read step as an older deployment', () => {
    // Act
    const results = reachResults(undefined, { job: 'web' });

    // Assert
    expect(results).toEqual([
      expect.objectContaining({ passed: false, why: 'the check execution ran no read step' }),
    ]);
  });
});
