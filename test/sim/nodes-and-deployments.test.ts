// Scenario: node failures (Nomad's `nomad/node_endpoint.go`) and deployments
// (`nomad/deploymentwatcher/`). A node marked disconnected turns allocations with a `disconnect`
// block `unknown` and, with `replace = true`, gets them linked replacements; on reconnect
// `disconnect.reconcile` decides which one keeps running. A down node loses its allocations and
// replaces them. Service jobs with an update block get a deployment that the control API can steer.
import type { Allocation, Deployment } from '../../lib/nomad/types';
import { group, job, nodes, seconds, seededRandom } from './helpers/fixtures';
import { get, put } from './helpers/http';
import { itSim, itSimEach, openTarget, simControl, type Target } from './helpers/target';

describe('simulator', () => {
  let target: Target;

  beforeAll(async () => {
    target = await openTarget({ random: seededRandom(11) });
  });
  afterAll(() => target.close());
  beforeEach(() => target.control?.reset());

  /** One allocation on node-1 (node-2 ineligible at seed time), then node-2 opened for replacements. */
  const seedDisconnectable = (reconcile: string, replace = true): Allocation => {
    const control = simControl(target);
    control.seed({
      nodes: [
        { id: 'node-1', name: 'node-1' },
        { id: 'node-2', name: 'node-2', eligible: false },
      ],
      jobs: [
        job('dc', 'service', [
          group('g', 1, { Disconnect: { LostAfter: seconds(3600), Replace: replace, Reconcile: reconcile } }),
        ]),
      ],
    });
    control.setNodeEligibility('node-2', true);
    const [original] = control.state().allocations({ jobId: 'dc' });
    if (!original) throw new Error('no allocation');
    return original;
  };

  describe('setNodeStatus', () => {
    itSimEach([
      { reconcile: 'keep_original', keeps: 'original' },
      { reconcile: 'best_score', keeps: 'original' },
      { reconcile: 'longest_running', keeps: 'original' },
      { reconcile: 'keep_replacement', keeps: 'replacement' },
    ])('keeps the $keeps on reconnect with reconcile = $reconcile', async ({ reconcile, keeps }) => {
      // Arrange
      const control = simControl(target);
      const original = seedDisconnectable(reconcile);

      // Act
      control.setNodeStatus('node-1', 'disconnected');
      await control.waitFor((s) =>
        s
          .allocations({ jobId: 'dc' })
          .some((a) => a.PreviousAllocation === original.ID && a.ClientStatus === 'running'),
      );
      const whileDisconnected = control.state().allocation(original.ID);
      control.setNodeStatus('node-1', 'ready');
      const replacement = control
        .state()
        .allocations({ jobId: 'dc' })
        .find((a) => a.PreviousAllocation === original.ID);
      await control.waitFor(
        (s) => s.allocations({ jobId: 'dc' }).filter((a) => a.DesiredStatus === 'run').length === 1,
      );

      // Assert
      expect(whileDisconnected).toMatchObject({
        ClientStatus: 'unknown',
        DesiredStatus: 'run',
        ClientDescription: 'alloc is unknown since its node is disconnected',
        NextAllocation: replacement?.ID,
      });
      const kept = keeps === 'original' ? original.ID : replacement?.ID;
      const lost = keeps === 'original' ? replacement?.ID : original.ID;
      expect(control.state().allocation(kept ?? '')).toMatchObject({ DesiredStatus: 'run' });
      expect(control.state().allocation(lost ?? '')).toMatchObject({
        DesiredStatus: 'stop',
        DesiredDescription:
          keeps === 'original'
            ? 'alloc not needed due to disconnected client reconnect'
            : 'alloc not needed due to job update',
      });
    });

    itSim('does not replace an unknown allocation when disconnect.replace is false', async () => {
      // Arrange
      const control = simControl(target);
      const original = seedDisconnectable('best_score', false);

      // Act
      control.setNodeStatus('node-1', 'disconnected');
      await control.waitFor((s) =>
        s
          .evaluations({ jobId: 'dc' })
          .filter((e) => e.TriggeredBy === 'node-update')
          .every((e) => e.Status === 'complete'),
      );
      control.setNodeStatus('node-1', 'ready');

      // Assert
      expect(control.state().allocations({ jobId: 'dc' })).toHaveLength(1);
      expect(control.state().allocation(original.ID)).toMatchObject({
        ClientStatus: 'running',
        DesiredStatus: 'run',
        NextAllocation: '',
      });
    });

    itSim('marks allocations on a down node lost and places linked replacements', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({ nodes: nodes(1), jobs: [job('web', 'service', [group('g', 1)])] });
      const [original] = control.state().allocations({ jobId: 'web' });
      if (!original) throw new Error('no allocation');
      control.seed({ nodes: [{ id: 'node-2', name: 'node-2' }], jobs: [] });

      // Act
      control.setNodeStatus('node-1', 'down');
      await control.waitFor((s) =>
        s
          .allocations({ jobId: 'web' })
          .some((a) => a.PreviousAllocation === original.ID && a.ClientStatus === 'running'),
      );

      // Assert
      expect(control.state().allocation(original.ID)).toMatchObject({
        DesiredStatus: 'stop',
        ClientStatus: 'lost',
        DesiredDescription: 'alloc is lost since its node is down',
      });
      const replacement = control
        .state()
        .allocations({ jobId: 'web' })
        .find((a) => a.PreviousAllocation === original.ID);
      expect(replacement?.NodeID).toBe('node-2');
      expect(control.state().allocation(original.ID)?.NextAllocation).toBe(replacement?.ID);
    });

    itSim('marks an unknown allocation lost when lost_after runs out', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({
        nodes: nodes(1),
        jobs: [
          job('short', 'service', [group('g', 1, { Disconnect: { LostAfter: seconds(2), Replace: false } })]),
        ],
      });
      const [original] = control.state().allocations({ jobId: 'short' });

      // Act
      control.setNodeStatus('node-1', 'disconnected');
      await control.waitFor((s) => s.allocation(original?.ID ?? '')?.ClientStatus === 'lost');

      // Assert
      expect(control.state().allocation(original?.ID ?? '')).toMatchObject({
        DesiredStatus: 'stop',
        ClientStatus: 'lost',
      });
      expect(
        control
          .state()
          .evaluations({ jobId: 'short' })
          .map((e) => e.TriggeredBy),
      ).toContain('max-disconnect-timeout');
    });
  });

  describe('deployments', () => {
    itSim('runs a deployment to successful once the allocations are healthy', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({ nodes: nodes(1), jobs: [] });

      // Act
      // Registered in-process so the status is read before any simulated time passes.
      control.registerJob(
        job('dep', 'service', [group('g', 2, { Update: { MaxParallel: 1, MinHealthyTime: seconds(1) } })]),
      );
      const running = control.state().deployments({ jobId: 'dep' });
      await control.waitFor((s) => s.deployments({ jobId: 'dep' })[0]?.Status === 'successful');

      // Assert
      expect(running.map((d) => d.Status)).toEqual(['running']);
      expect(control.state().deployments({ jobId: 'dep' })[0]).toMatchObject({
        JobVersion: 0,
        StatusDescription: 'Deployment completed successfully',
      });
    });

    itSim(
      'waits for promotion with unpromoted canaries, and finishes the update once set successful',
      async () => {
        // Arrange
        const control = simControl(target);
        const update = { Canary: 1, AutoPromote: false, MinHealthyTime: seconds(1) };
        control.seed({
          nodes: nodes(2),
          jobs: [job('canary', 'service', [group('g', 2, { Update: update })])],
        });
        const originals = control
          .state()
          .allocations({ jobId: 'canary' })
          .map((a) => a.ID);

        // Act
        await put(target.address, '/v1/jobs', {
          Job: job('canary', 'service', [group('g', 2, { Update: update }, '10h')]),
        });
        await control.waitFor((s) =>
          s
            .allocations({ jobId: 'canary' })
            .some((a) => a.DeploymentStatus?.Canary && a.ClientStatus === 'running'),
        );
        const [deployment] = control
          .state()
          .deployments({ jobId: 'canary' })
          .filter((d) => d.JobVersion === 1);
        const beforePromotion = control.state().allocations({ jobId: 'canary' });
        control.setDeploymentStatus(deployment?.ID ?? '', 'successful');
        await control.waitFor((s) => originals.every((id) => s.allocation(id)?.DesiredStatus === 'stop'));

        // Assert
        expect(deployment).toMatchObject({
          Status: 'running',
          StatusDescription: 'Deployment is running but requires manual promotion',
        });
        expect(
          beforePromotion.filter((a) => originals.includes(a.ID)).every((a) => a.DesiredStatus === 'run'),
        ).toBe(true);
        expect(beforePromotion).toHaveLength(3);
        const live = control
          .state()
          .allocations({ jobId: 'canary' })
          .filter((a) => a.DesiredStatus === 'run');
        expect(live.every((a) => a.JobVersion === 1)).toBe(true);
        expect(live).toHaveLength(2);
      },
    );

    itSim('lets the control API set any deployment status', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({
        nodes: nodes(1),
        jobs: [job('d', 'service', [group('g', 1, { Update: { MaxParallel: 1 } })])],
      });
      const [deployment] = control.state().deployments({ jobId: 'd' });

      // Act
      control.setDeploymentStatus(deployment?.ID ?? '', 'paused');
      const listed = (await get<Deployment[]>(target.address, '/v1/job/d/deployments?all=true')).json;

      // Assert
      expect(listed.map((d) => d.Status)).toEqual(['paused']);
      expect(() => control.setDeploymentStatus('nope', 'failed')).toThrow('Unknown deployment "nope"');
    });
  });
});
