// Scenario: the health gate's verdict on one allocation from its task states and Nomad service
// checks: Nomad's tracker rules (running tasks, completed prestart/poststart, waiting poststop,
// failed tasks, ignored readiness failures), a task restarted by us must have started again, and
// a check result counts only in a later second than the latest task start (the traced stale
// result), with reasons that name the task or check and its last output.
import type { AllocCheckStatus, TaskEvent, TaskState } from '../../../lib/nomad/types';
import { type HealthView, judgeHealth, latestStartNs, taskRoles } from '../../../lib/restart/health/health';

const S = 1e9;
/** A restart signalled at t = 100 s (Unix ns), the batch started at 99 s. */
const SIGNAL = 100 * S;
const SINCE_MS = 99_000;

const ev = (type: string, atS: number, display = ''): TaskEvent => ({
  Type: type,
  Time: atS * S,
  DisplayMessage: display,
});

/** A task restarted by us at 100 s and started again at `startedS`. */
function restarted(startedS: number): TaskState {
  return {
    State: 'running',
    Failed: false,
    Restarts: 1,
    StartedAt: new Date(startedS * 1000).toISOString(),
    LastRestart: new Date(100_100).toISOString(),
    Events: [
      ev('Started', 10),
      { Type: 'Restart Signaled', Time: SIGNAL, DisplayMessage: 'User requested running tasks to restart' },
      ev('Terminated', 100.1, 'Exit Code: 130, Signal: 2'),
      ev('Restarting', 100.1, 'Task restarting in 0s'),
      ev('Started', startedS, 'Task started by client'),
    ],
  };
}

const check = (over: Partial<AllocCheckStatus> = {}): AllocCheckStatus => ({
  ID: 'c1',
  Check: 'http',
  Mode: 'healthiness',
  Status: 'success',
  Output: 'nomad: http ok',
  Timestamp: 102,
  ...over,
});

function view(over: Partial<HealthView> = {}, states?: Record<string, TaskState>): HealthView {
  return {
    allocation: {
      ClientStatus: 'running',
      DesiredStatus: 'run',
      TaskStates: states ?? { web: restarted(101) },
    },
    restartedSinceMs: SINCE_MS,
    roles: { web: 'main' },
    checks: { c1: check() },
    ...over,
  };
}

describe('health', () => {
  describe('judgeHealth', () => {
    it('passes a restarted task running again whose check ran in a later second', () => {
      // Arrange / Act
      const health = judgeHealth(view());

      // Assert
      expect(health).toEqual({ kind: 'passing', checks: 1, latestStartNs: 101 * S });
    });

    it.each([
      {
        name: 'a check result from before the restart (the traced stale success)',
        over: { checks: { c1: check({ Timestamp: 95 }) } },
        reason: 'check "http" has not run since the task started',
      },
      {
        name: 'a check result in the same second as the start',
        over: { checks: { c1: check({ Timestamp: 101 }) } },
        reason: 'check "http" has not run since the task started',
      },
      {
        name: 'a failing check, with its output',
        over: {
          checks: {
            c1: check({
              Status: 'failure',
              Output:
                'nomad: Get "http://127.0.0.1:30386/": dial tcp 127.0.0.1:30386: connect: connection refused',
            }),
          },
        },
        reason:
          'check "http" is "failure": nomad: Get "http://127.0.0.1:30386/": dial tcp 127.0.0.1:30386: connect: connection refused',
      },
      {
        name: 'a pending check',
        over: { checks: { c1: check({ Status: 'pending', Output: 'nomad: waiting to run' }) } },
        reason: 'check "http" is "pending": nomad: waiting to run',
      },
      {
        name: 'a pending readiness check (only its failures are ignored)',
        over: { checks: { c1: check({ Status: 'pending', Mode: 'readiness', Output: '' }) } },
        reason: 'check "http" is "pending"',
      },
    ])('waits on $name', ({ over, reason }) => {
      // Arrange / Act
      const health = judgeHealth(view(over));

      // Assert
      expect(health).toEqual({ kind: 'unhealthy', reason });
    });

    it('ignores a failing readiness check, as Nomad does', () => {
      // Arrange / Act
      const health = judgeHealth(
        view({
          checks: {
            c1: check(),
            c2: check({ ID: 'c2', Check: 'ready', Mode: 'readiness', Status: 'failure' }),
          },
        }),
      );

      // Assert
      expect(health).toMatchObject({ kind: 'passing', checks: 2 });
    });

    it('judges an allocation without Nomad checks on its tasks alone', () => {
      // Arrange / Act
      const health = judgeHealth(view({ checks: {} }));

      // Assert
      expect(health).toEqual({ kind: 'passing', checks: 0, latestStartNs: 101 * S });
    });

    it('asks for the checks once the tasks are fine', () => {
      // Arrange
      const { checks: _unread, ...unread } = view();

      // Act
      const health = judgeHealth(unread);

      // Assert
      expect(health).toEqual({ kind: 'unhealthy', reason: 'checks not read yet', needs: 'checks' });
    });

    it('waits for a task still running its old process after our signal', () => {
      // Arrange: signalled at 100 s, the kill not done yet.
      const state: TaskState = {
        ...restarted(101),
        StartedAt: new Date(10_000).toISOString(),
        Events: [ev('Started', 10), { Type: 'Restart Signaled', Time: SIGNAL }],
      };

      // Act
      const health = judgeHealth(view({}, { web: state }));

      // Assert
      expect(health).toEqual({
        kind: 'unhealthy',
        reason: 'task "web" has not started again since the restart',
      });
    });

    it('waits until the servers report the restart (their view lags the client)', () => {
      // Arrange: still the pre-restart state, stale check and all.
      const before: TaskState = {
        State: 'running',
        Failed: false,
        Restarts: 0,
        StartedAt: new Date(10_000).toISOString(),
        Events: [ev('Started', 10)],
      };

      // Act
      const health = judgeHealth(view({ checks: { c1: check({ Timestamp: 95 }) } }, { web: before }));

      // Assert
      expect(health).toEqual({ kind: 'unhealthy', reason: 'the restart is not in its task states yet' });
    });

    it('names a pending task and its last event', () => {
      // Arrange
      const state: TaskState = {
        ...restarted(101),
        State: 'pending',
        Events: [
          ...(restarted(101).Events ?? []).slice(0, 4),
          ev('Restarting', 101, 'Task restarting in 3s'),
        ],
      };

      // Act
      const health = judgeHealth(view({}, { web: state }));

      // Assert
      expect(health).toEqual({
        kind: 'unhealthy',
        reason: 'task "web" is "pending" (Restarting: Task restarting in 3s)',
      });
    });

    it.each([
      {
        name: 'a failed task (crash on start past its restart policy)',
        allocation: {
          ClientStatus: 'failed',
          DesiredStatus: 'run',
          TaskStates: {
            web: {
              ...restarted(101),
              State: 'dead',
              Failed: true,
              Events: [
                ev('Not Restarting', 104, 'Exceeded allowed attempts 1 in interval 30m0s and mode is "fail"'),
              ],
            },
          },
        },
        reason:
          'task "web" failed (Not Restarting: Exceeded allowed attempts 1 in interval 30m0s and mode is "fail")',
      },
      {
        name: 'a lost allocation',
        allocation: { ClientStatus: 'lost', DesiredStatus: 'stop', TaskStates: { web: restarted(101) } },
        reason: 'client status is "lost"',
      },
      {
        name: 'an allocation being stopped',
        allocation: { ClientStatus: 'running', DesiredStatus: 'stop', TaskStates: { web: restarted(101) } },
        reason: 'desired status is "stop"',
      },
      {
        name: 'a main task that ended',
        allocation: {
          ClientStatus: 'running',
          DesiredStatus: 'run',
          TaskStates: {
            web: { ...restarted(101), State: 'dead', Events: [ev('Terminated', 103, 'Exit Code: 0')] },
          },
        },
        reason: 'task "web" is "dead" (Terminated: Exit Code: 0)',
      },
    ])('reports $name as failed, not waited on', ({ allocation, reason }) => {
      // Arrange / Act
      const health = judgeHealth(view({ allocation }));

      // Assert
      expect(health).toEqual({ kind: 'failed', reason });
    });

    it('accepts a completed prestart task and a waiting poststop task (-all-tasks)', () => {
      // Arrange
      const prestart: TaskState = { ...restarted(100.5), State: 'dead', Failed: false };
      const poststop: TaskState = { State: 'pending', Failed: false, Events: [ev('Received', 5)] };
      const states = { init: prestart, main: restarted(101), cleanup: poststop };

      // Act
      const withRoles = judgeHealth(
        view(
          {
            roles: taskRoles({
              Name: 'g',
              Tasks: [
                { Name: 'init', Lifecycle: { Hook: 'prestart', Sidecar: false } },
                { Name: 'main' },
                { Name: 'cleanup', Lifecycle: { Hook: 'poststop' } },
              ],
            }),
          },
          states,
        ),
      );
      const withoutRoles = judgeHealth(view({ roles: undefined }, states));

      // Assert
      expect(withRoles).toMatchObject({ kind: 'passing' });
      expect(withoutRoles).toEqual({
        kind: 'unhealthy',
        reason: 'task "cleanup" is "pending"',
        needs: 'roles',
      });
    });

    it('holds a replacement to the tracker rules only (no restart signal to look for)', () => {
      // Arrange
      const fresh: TaskState = {
        State: 'running',
        Failed: false,
        StartedAt: new Date(200_000).toISOString(),
        Events: [ev('Started', 200)],
      };

      // Act
      const health = judgeHealth(
        view({ restartedSinceMs: undefined, checks: { c1: check({ Timestamp: 201 }) } }, { web: fresh }),
      );

      // Assert
      expect(health).toEqual({ kind: 'passing', checks: 1, latestStartNs: 200 * S });
    });
  });

  describe('taskRoles', () => {
    it('reads the lifecycle of each task of a group', () => {
      // Arrange / Act
      const roles = taskRoles({
        Name: 'g',
        Tasks: [
          { Name: 'a' },
          { Name: 'b', Lifecycle: { Hook: 'prestart', Sidecar: true } },
          { Name: 'c', Lifecycle: { Hook: 'poststart', Sidecar: false } },
          { Name: 'd', Lifecycle: null },
        ],
      });

      // Assert
      expect(roles).toEqual({ a: 'main', b: 'sidecar', c: 'poststart', d: 'main' });
    });
  });

  describe('latestStartNs', () => {
    it('takes the newest Started event, else StartedAt, else 0', () => {
      // Arrange / Act / Assert
      expect(latestStartNs(restarted(101))).toBe(101 * S);
      expect(latestStartNs({ State: 'running', StartedAt: '1970-01-01T00:01:40.000Z' })).toBe(100 * S);
      expect(latestStartNs({ State: 'pending' })).toBe(0);
    });
  });
});
