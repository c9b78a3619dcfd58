// Scenario: the health gate's verdict on an allocation's Consul checks, as Nomad's tracker judges
// them: which checks (Consul services of the group and its tasks, minus on_update = "ignore"),
// found by Nomad's service ID and the check name; passing, warning only with ignore_warnings,
// critical never, a missing check not healthy, node checks ignored; and a passing that counts
// only once the check ran since the restart (an interval after the start, or after another status).
import type { TaskGroup } from '../../../lib/nomad/types';
import {
  type ConsulCheckState,
  type ConsulView,
  judgeConsulChecks,
} from '../../../lib/restart/health/consul-health';
import {
  consulServiceId,
  consulServiceNames,
  declaredConsulChecks,
} from '../../../lib/steps/health/consul-declared';

const ALLOC = '7b0f7602-0000-4000-8000-000000000001';
const S = 1e9;

const GROUP: TaskGroup = {
  Name: 'web',
  Services: [
    { Name: 'web-lb', PortLabel: 'http', Checks: [{ Name: 'alive', Type: 'tcp', Interval: 5 * S }] },
    { Name: 'web-admin', Provider: 'nomad', Checks: [{ Name: 'nomad-only', Type: 'http' }] },
  ],
  Tasks: [
    {
      Name: 'server',
      Services: [
        {
          Name: 'web',
          PortLabel: 'http',
          Checks: [
            { Name: 'http', Type: 'http', Interval: 10 * S },
            { Name: 'slow', Type: 'http', Interval: 10 * S, OnUpdate: 'ignore_warnings' },
            { Name: 'ready', Type: 'http', Interval: 10 * S, OnUpdate: 'ignore' },
            { Name: '', Type: 'tcp', Interval: 10 * S },
          ],
        },
      ],
    },
  ],
};

const WEB_ID = `_nomad-task-${ALLOC}-server-web-http`;
const LB_ID = `_nomad-task-${ALLOC}-group-web-web-lb-http`;

const state = (ServiceID: string, Name: string, Status = 'passing', Output = ''): ConsulCheckState => ({
  ServiceID,
  Name,
  Status,
  Output,
});

/** Every declared check passing; a node check besides. */
const allPassing = (): ConsulCheckState[] => [
  state(WEB_ID, 'http'),
  state(WEB_ID, 'slow'),
  state(WEB_ID, 'ready', 'critical'),
  state(WEB_ID, 'service: "web" check'),
  state(LB_ID, 'alive'),
  state('', 'Serf Health Status', 'critical'),
];

/** Judged 20 s after the tasks started at 1000 s: every interval has passed. */
const view = (over: Partial<ConsulView> = {}): ConsulView => ({
  serviceIdOf: (check) => consulServiceId(ALLOC, check),
  declared: declaredConsulChecks(GROUP),
  checks: allPassing(),
  tasksStartedMs: 1_000_000,
  now: 1_020_000,
  seenNotHealthy: [],
  ...over,
});

const withStatus = (name: string, status: string, output = '') =>
  allPassing().map((c) => (c.Name === name ? { ...c, Status: status, Output: output } : c));

describe('declaredConsulChecks', () => {
  it('lists the Consul checks of group and task services, minus on_update = "ignore" and Nomad services', () => {
    // Act
    const declared = declaredConsulChecks(GROUP);
    // Assert
    expect(declared.map((c) => `${consulServiceId(ALLOC, c)} ${c.name}`).sort()).toEqual([
      `${LB_ID} alive`,
      `${WEB_ID} http`,
      `${WEB_ID} service: "web" check`,
      `${WEB_ID} slow`,
    ]);
    expect(consulServiceNames([GROUP])).toEqual(['web', 'web-lb']);
  });

  it('lists nothing for a group whose services are all Nomad services', () => {
    // Arrange
    const group: TaskGroup = {
      Name: 'g',
      Services: [{ Name: 's', Provider: 'nomad', Checks: [{ Name: 'c', Type: 'tcp' }] }],
    };
    // Act / Assert
    expect(consulServiceNames([group, undefined])).toEqual([]);
  });

  it('takes the service on_update for checks without their own', () => {
    // Arrange
    const group: TaskGroup = {
      Name: 'g',
      Services: [{ Name: 's', OnUpdate: 'ignore', Checks: [{ Name: 'c', Type: 'tcp' }] }],
    };
    // Act / Assert
    expect(declaredConsulChecks(group)).toEqual([]);
  });
});

describe('judgeConsulChecks', () => {
  it('is passing when every waited check passes, whatever ignored and node checks say', () => {
    // Act
    const verdict = judgeConsulChecks(view());
    // Assert
    expect(verdict.health).toEqual({ kind: 'passing', checks: 4 });
  });

  it('is not healthy on a critical check, naming it with its output', () => {
    // Act
    const verdict = judgeConsulChecks(
      view({ checks: withStatus('http', 'critical', 'HTTP GET: 503 Service Unavailable\n') }),
    );
    // Assert
    expect(verdict.health).toEqual({
      kind: 'unhealthy',
      reason: 'Consul check "http" of service "web" is "critical": HTTP GET: 503 Service Unavailable',
    });
    expect(verdict.seenNotHealthy).toEqual([`${WEB_ID}/http`]);
  });

  it.each([
    { name: 'counts warning as healthy with ignore_warnings', check: 'slow', kind: 'passing' },
    { name: 'does not count warning without ignore_warnings', check: 'http', kind: 'unhealthy' },
  ])('$name', ({ check, kind }) => {
    // Act
    const verdict = judgeConsulChecks(view({ checks: withStatus(check, 'warning') }));
    // Assert
    expect(verdict.health.kind).toBe(kind);
  });

  it('is not healthy while a declared check is not registered in Consul', () => {
    // Act
    const verdict = judgeConsulChecks(view({ checks: allPassing().filter((c) => c.ServiceID !== LB_ID) }));
    // Assert
    expect(verdict.health).toEqual({
      kind: 'unhealthy',
      reason: 'Consul check "alive" of service "web-lb" is not registered',
    });
  });

  it('does not count a passing from before one check interval after the restart', () => {
    // Act: 7 s after the start, the 10 s checks have not run yet (the 5 s one has)
    const verdict = judgeConsulChecks(view({ now: 1_007_000 }));
    // Assert
    expect(verdict.health).toEqual({
      kind: 'unhealthy',
      reason: 'Consul check "http" of service "web" has not run since the restart',
    });
  });

  it('counts a passing at once after Consul showed another status since the restart', () => {
    // Arrange: every check was seen critical (the status Nomad registers them with)
    const first = judgeConsulChecks(
      view({ now: 1_001_000, checks: allPassing().map((c) => ({ ...c, Status: 'critical' })) }),
    );
    // Act
    const verdict = judgeConsulChecks(view({ now: 1_002_000, seenNotHealthy: first.seenNotHealthy }));
    // Assert
    expect(first.health.kind).toBe('unhealthy');
    expect(verdict.health).toEqual({ kind: 'passing', checks: 4 });
  });
});
