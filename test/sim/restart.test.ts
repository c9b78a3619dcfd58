// Scenario: the client restart endpoint (Nomad's `client/alloc_endpoint.go`) on T3's job:
// `single_task` ×3 and `multiple_tasks` ×2 with a dead prestart task and a poststart sidecar.
// Checks which tasks each mode restarts, the events and counters it leaves, the group shutdown
// delay, and every error of Nomad's `command/agent/http.go` `HTTPServer.wrap` with its exact status
// and text/plain body.
import type { AllocListStub, TaskState } from '../../lib/nomad/types';
import { group, job, nodes, seconds, seededRandom, t3Job } from './helpers/fixtures';
import { call, get, put } from './helpers/http';
import { itSim, itSimEach, openTarget, simControl, type Target } from './helpers/target';

describe('simulator', () => {
  let target: Target;

  beforeAll(async () => {
    // A long pending phase (1 s real) keeps freshly placed allocations pending while a test looks at them.
    target = await openTarget({ random: seededRandom(7), allocStartMs: 100_000 });
  });
  afterAll(() => target.close());
  beforeEach(() => target.control?.reset());

  const seedT3 = async (): Promise<{ single: AllocListStub; multi: AllocListStub }> => {
    simControl(target).seed({ nodes: nodes(1), jobs: [t3Job('t3')] });
    const allocs = (await get<AllocListStub[]>(target.address, '/v1/job/t3/allocations')).json;
    const single = allocs.find((a) => a.TaskGroup === 'single_task');
    const multi = allocs.find((a) => a.TaskGroup === 'multiple_tasks');
    if (!single || !multi) throw new Error('missing allocations');
    return { single, multi };
  };
  const restarted = (states: Record<string, TaskState> | null | undefined): string[] =>
    Object.entries(states ?? {})
      .filter(([, s]) => s.Events?.some((e) => e.Type === 'Restart Signaled'))
      .map(([name]) => name)
      .sort();

  describe('PUT /v1/client/allocation/:id/restart', () => {
    itSimEach([
      {
        mode: 'running tasks',
        body: { TaskName: '', AllTasks: false },
        tasks: ['main', 'sidecar'],
        reason: 'User requested running tasks to restart',
      },
      {
        mode: 'all tasks',
        body: { TaskName: '', AllTasks: true },
        tasks: ['main', 'prestart', 'sidecar'],
        reason: 'User requested all tasks to restart',
      },
      {
        mode: 'one task',
        body: { TaskName: 'sidecar', AllTasks: false },
        tasks: ['sidecar'],
        reason: 'User requested task to restart',
      },
    ])('restarts $mode and records the events', async ({ body, tasks, reason }) => {
      // Arrange
      const { multi } = await seedT3();

      // Act
      const response = await put(target.address, `/v1/client/allocation/${multi.ID}/restart`, body);
      // With all tasks, main and sidecar start only once prestart has run again.
      await simControl(target).waitFor(
        (s) => s.allocation(multi.ID)?.TaskStates?.['main']?.State === 'running',
      );
      const after = simControl(target).state().allocation(multi.ID);

      // Assert
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ Index: 0 });
      expect(response.headers.get('X-Nomad-Index')).toBeNull();
      expect(restarted(after?.TaskStates)).toEqual(tasks);
      for (const task of tasks) {
        const state = after?.TaskStates?.[task];
        const types = state?.Events?.map((e) => e.Type) ?? [];
        const from = types.indexOf('Restart Signaled');
        // As a Nomad client reports it: the task directory is not built again.
        expect(types.slice(from, from + 4)).toEqual([
          'Restart Signaled',
          'Terminated',
          'Restarting',
          'Started',
        ]);
        expect(state?.Events?.find((e) => e.Type === 'Restart Signaled')).toMatchObject({
          RestartReason: reason,
          DisplayMessage: reason,
        });
        expect(state?.Restarts).toBe(1);
        expect(state?.LastRestart).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      }
      expect(after?.ClientStatus).toBe('running');
    });

    itSim('runs prestart again before the main tasks when all tasks restart', async () => {
      // Arrange
      const { multi } = await seedT3();

      // Act
      await put(target.address, `/v1/client/allocation/${multi.ID}/restart`, {
        TaskName: '',
        AllTasks: true,
      });
      await simControl(target).waitFor(
        (s) => s.allocation(multi.ID)?.TaskStates?.['main']?.State === 'running',
      );

      // Assert
      const states = simControl(target).state().allocation(multi.ID)?.TaskStates ?? {};
      expect(states['prestart']?.State).toBe('dead');
      const prestartDone =
        states['prestart']?.Events?.filter((e) => e.Type === 'Terminated').at(-1)?.Time ?? 0;
      const mainStarted = states['main']?.Events?.filter((e) => e.Type === 'Started').at(-1)?.Time ?? 0;
      expect(mainStarted).toBeGreaterThanOrEqual(prestartDone);
    });

    itSim('keeps at most 10 events per task and counts every restart', async () => {
      // Arrange
      const { single } = await seedT3();

      // Act
      for (let i = 0; i < 4; i++)
        await put(target.address, `/v1/client/allocation/${single.ID}/restart`, {
          TaskName: 'main',
          AllTasks: false,
        });

      // Assert
      const state = simControl(target).state().allocation(single.ID)?.TaskStates?.['main'];
      expect(state?.Events).toHaveLength(10);
      expect(state?.Restarts).toBe(4);
      expect(state?.Events?.at(-1)?.Type).toBe('Started');
    });

    itSim('waits the group shutdown_delay in whole-allocation modes but not for one task', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({
        nodes: nodes(1),
        jobs: [job('delay', 'service', [group('g', 2, { ShutdownDelay: seconds(5) })])],
      });
      const [a, b] = (await get<AllocListStub[]>(target.address, '/v1/job/delay/allocations')).json;
      if (!a || !b) throw new Error('no allocations');
      const gapMs = (id: string): number => {
        const events = control.state().allocation(id)?.TaskStates?.['main']?.Events ?? [];
        const time = (type: string) => events.find((e) => e.Type === type)?.Time ?? Number.NaN;
        return (time('Terminated') - time('Restart Signaled')) / 1e6;
      };

      // Act
      await put(target.address, `/v1/client/allocation/${a.ID}/restart`, { TaskName: '', AllTasks: false });
      await put(target.address, `/v1/client/allocation/${b.ID}/restart`, {
        TaskName: 'main',
        AllTasks: false,
      });

      // Assert
      expect(gapMs(a.ID)).toBeGreaterThanOrEqual(5000);
      expect(gapMs(b.ID)).toBeLessThan(5000);
    });

    itSim('succeeds without restarting anything on a pending allocation', async () => {
      // Arrange
      const control = simControl(target);
      control.seed({ nodes: nodes(1), jobs: [] });
      await put(target.address, '/v1/jobs', { Job: job('slow', 'service', [group('g', 1)]) });
      await control.waitFor((s) => s.allocations({ jobId: 'slow' }).length === 1);
      const [pending] = control.state().allocations({ jobId: 'slow' });

      // Act
      const response = await put(target.address, `/v1/client/allocation/${pending?.ID}/restart`, {});

      // Assert
      expect(pending?.ClientStatus).toBe('pending');
      expect(response.status).toBe(200);
      expect(restarted(control.state().allocation(pending?.ID ?? '')?.TaskStates)).toEqual([]);
    });

    itSim('accepts any method and an empty body', async () => {
      // Arrange
      const { single } = await seedT3();

      // Act
      const response = await call(target.address, `/v1/client/allocation/${single.ID}/restart`, {
        method: 'POST',
      });

      // Assert
      expect(response.status).toBe(200);
      expect(restarted(simControl(target).state().allocation(single.ID)?.TaskStates)).toEqual(['main']);
    });

    describe('errors', () => {
      itSimEach([
        {
          name: 'a dead prestart task',
          group: 'multi',
          body: { TaskName: 'prestart', AllTasks: false },
          status: 500,
          text: 'Task not running',
        },
        {
          name: 'an unknown task',
          group: 'multi',
          body: { TaskName: 'nope', AllTasks: false },
          status: 500,
          text: 'Could not find task runner for task: nope',
        },
        {
          name: 'a task name with AllTasks',
          group: 'single',
          body: { TaskName: 'main', AllTasks: true },
          status: 500,
          text: 'task name cannot be set when restarting all tasks',
        },
        {
          name: 'a malformed body',
          group: 'single',
          body: '{"TaskName":',
          status: 500,
          text: 'unexpected EOF',
        },
        {
          name: 'a TaskName of the wrong type',
          group: 'single',
          body: { TaskName: 5 },
          status: 500,
          text: 'json: cannot unmarshal number into Go struct field .TaskName of type string',
        },
      ])('answers $status "$text" for $name', async ({ group: which, body, status, text }) => {
        // Arrange
        const { single, multi } = await seedT3();
        const alloc = which === 'multi' ? multi : single;

        // Act
        const response = await put(target.address, `/v1/client/allocation/${alloc.ID}/restart`, body);

        // Assert
        expect(response.status).toBe(status);
        expect(response.text).toBe(text);
        expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
      });

      itSim('answers 500 "restart of an alloc that should not run" for a stopped allocation', async () => {
        // Arrange
        const { single } = await seedT3();
        await put(target.address, `/v1/allocation/${single.ID}/stop`);
        await simControl(target).waitFor((s) => s.allocation(single.ID)?.DesiredStatus === 'stop');

        // Act
        const response = await put(target.address, `/v1/client/allocation/${single.ID}/restart`, {
          TaskName: '',
          AllTasks: false,
        });

        // Assert
        expect(response.status).toBe(500);
        expect(response.text).toBe('restart of an alloc that should not run');
      });

      itSim('answers 404 Unknown allocation for a missing allocation', async () => {
        // Arrange
        const id = '00000000-0000-4000-8000-000000000000';

        // Act
        const response = await put(target.address, `/v1/client/allocation/${id}/restart`, {});

        // Assert
        expect(response.status).toBe(404);
        expect(response.text).toBe(`Unknown allocation "${id}"`);
      });

      itSimEach([{ status: 'disconnected' }, { status: 'down' }] as const)(
        'answers 404 No path to node when the node is $status',
        async ({ status }) => {
          // Arrange
          const { single } = await seedT3();
          simControl(target).setNodeStatus('node-1', status);

          // Act
          const response = await put(target.address, `/v1/client/allocation/${single.ID}/restart`, {});

          // Assert
          expect(response.status).toBe(404);
          expect(response.text).toBe('No path to node');
        },
      );
    });
  });
});
