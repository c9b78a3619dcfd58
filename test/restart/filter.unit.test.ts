import type { AllocListStub, Job, TaskState } from '../../lib/nomad/types';
import { filterAllocations, sortAllocations } from '../../lib/restart/filter';

// `TestJobRestartCommand_filterAllocs` fixture: job "example", version 1 with group_1[task_1],
// group_2[task_1, task_2], group_3[task_3]; version 2 with group_1[task_1], group_2[task_2].
const versions = new Map<number, Job>([
  [
    1,
    {
      ID: 'example',
      Type: 'service',
      TaskGroups: [
        { Name: 'group_1', Tasks: [{ Name: 'task_1' }] },
        { Name: 'group_2', Tasks: [{ Name: 'task_1' }, { Name: 'task_2' }] },
        { Name: 'group_3', Tasks: [{ Name: 'task_3' }] },
      ],
    },
  ],
  [
    2,
    {
      ID: 'example',
      Type: 'service',
      TaskGroups: [
        { Name: 'group_1', Tasks: [{ Name: 'task_1' }] },
        { Name: 'group_2', Tasks: [{ Name: 'task_2' }] },
      ],
    },
  ],
]);

function stub(
  id: string,
  version: number,
  group: string,
  desired: string,
  client: string,
  next?: string,
): AllocListStub {
  return {
    ID: id,
    JobID: 'example',
    JobVersion: version,
    TaskGroup: group,
    DesiredStatus: desired,
    ClientStatus: client,
    CreateIndex: 1,
    ModifyIndex: 1,
    ...(next === undefined ? {} : { NextAllocation: next }),
  };
}

/** Input order of T13: v1 then v2, groups in order, desired run/stop, client running/complete, each with a replaced twin. */
const stubs: AllocListStub[] = [];
for (const [version, groups] of [
  [1, ['group_1', 'group_2', 'group_3']],
  [2, ['group_1', 'group_2']],
] as const) {
  for (const group of groups) {
    for (const desired of ['run', 'stop']) {
      for (const client of ['running', 'complete']) {
        const id = `job_v${version}_${group}_${desired}_${client}`;
        stubs.push(stub(id, version, group, desired, client));
        stubs.push(stub(`${id}_replaced`, version, group, desired, client, 'next'));
      }
    }
  }
}

const three = (version: number, group: string) =>
  ['run_running', 'run_complete', 'stop_running'].map((s) => `job_v${version}_${group}_${s}`);

describe('filter', () => {
  describe('filterAllocations: TestJobRestartCommand_filterAllocs', () => {
    it.each([
      {
        name: '13.1 skip by group',
        groups: ['group_1'],
        tasks: [],
        survivors: [...three(1, 'group_1'), ...three(2, 'group_1')],
      },
      { name: '13.2 skip by old group', groups: ['group_3'], tasks: [], survivors: three(1, 'group_3') },
      {
        name: '13.3 skip by task',
        groups: [],
        tasks: ['task_2'],
        survivors: [...three(1, 'group_2'), ...three(2, 'group_2')],
      },
      { name: '13.4 skip by old task', groups: [], tasks: ['task_3'], survivors: three(1, 'group_3') },
      {
        name: '13.5 skip by group and task',
        groups: ['group_1', 'group_2'],
        tasks: ['task_2'],
        survivors: [...three(1, 'group_2'), ...three(2, 'group_2')],
      },
      {
        name: '13.6 skip by status',
        groups: [],
        tasks: [],
        survivors: [
          ...three(1, 'group_1'),
          ...three(1, 'group_2'),
          ...three(1, 'group_3'),
          ...three(2, 'group_1'),
          ...three(2, 'group_2'),
        ],
      },
      { name: '13.7 no matches by group', groups: ['group_404'], tasks: [], survivors: [] },
      { name: '13.8 no matches by task', groups: [], tasks: ['task_404'], survivors: [] },
      { name: '13.9 no matches by task with group', groups: ['group_1'], tasks: ['task_2'], survivors: [] },
    ])('$name', ({ groups, tasks, survivors }) => {
      // Arrange / Act
      const { eligible, skipped } = filterAllocations(stubs, versions, { groups, tasks });

      // Assert
      expect(eligible.map((a) => a.id)).toEqual(survivors);
      expect(skipped.map((s) => s.id).sort()).toEqual(
        stubs
          .map((s) => s.ID)
          .filter((id) => !survivors.includes(id))
          .sort(),
      );
      for (const s of skipped.filter((x) => x.id.endsWith('_replaced'))) {
        expect(s.reason.kind === 'replaced' || s.reason.kind === 'status').toBe(true);
      }
    });

    it('skips by the first matching rule, in the order of filterAllocs', () => {
      // Arrange
      const input = [
        stub('complete-and-replaced', 1, 'group_1', 'stop', 'complete', 'n1'),
        stub('replaced-other-group', 1, 'group_3', 'run', 'running', 'n2'),
        stub('other-group', 1, 'group_3', 'run', 'running'),
        stub('no-task', 1, 'group_1', 'run', 'running'),
      ];

      // Act
      const { skipped } = filterAllocations(input, versions, { groups: ['group_1'], tasks: ['task_2'] });

      // Assert
      expect(skipped).toEqual([
        {
          id: 'complete-and-replaced',
          reason: { kind: 'status', desiredStatus: 'stop', clientStatus: 'complete' },
        },
        { id: 'replaced-other-group', reason: { kind: 'replaced', nextAllocationId: 'n2' } },
        { id: 'other-group', reason: { kind: 'group' } },
        { id: 'no-task', reason: { kind: 'task' } },
      ]);
    });
  });

  describe('filterAllocations: missing job versions and task states', () => {
    it('keeps an allocation whose job version was pruned and falls back to TaskStates for -task', () => {
      // Arrange
      const pruned: AllocListStub = {
        ...stub('pruned', 9, 'group_1', 'run', 'running'),
        TaskStates: { task_1: { State: 'running' } },
        NodeID: 'node-1',
        Namespace: 'default',
      };
      const prunedNoStates = stub('pruned-no-states', 9, 'group_1', 'run', 'running');

      // Act
      const withTask = filterAllocations([pruned, prunedNoStates], versions, {
        groups: [],
        tasks: ['task_1', 'task_9'],
      });
      const noFilter = filterAllocations([pruned], new Map(), { groups: [], tasks: [] });

      // Assert
      expect(withTask.eligible).toEqual([
        {
          id: 'pruned',
          group: 'group_1',
          jobId: 'example',
          jobVersion: 9,
          namespace: 'default',
          nodeId: 'node-1',
          tasks: ['task_1'],
        },
      ]);
      expect(withTask.skipped).toEqual([{ id: 'pruned-no-states', reason: { kind: 'task' } }]);
      expect(noFilter.eligible[0]?.jobType).toBeUndefined();
    });

    it('does not crash on a version without Type or TaskGroups and reports the type when known', () => {
      // Arrange
      const odd = new Map<number, Job>([
        [1, { ID: 'example' }],
        [2, { ID: 'example', Type: 'system' }],
      ]);

      // Act
      const { eligible } = filterAllocations(
        [stub('a', 1, 'g', 'run', 'running'), stub('b', 2, 'g', 'run', 'pending')],
        odd,
        { groups: [], tasks: [] },
      );

      // Assert
      expect(eligible.map((a) => [a.id, a.jobType])).toEqual([
        ['a', undefined],
        ['b', 'system'],
      ]);
      expect(
        filterAllocations([stub('a', 1, 'g', 'run', 'running')], odd, { groups: [], tasks: ['t'] }).eligible,
      ).toEqual([]);
    });

    it('lists the requested tasks an allocation has, in request order', () => {
      // Arrange / Act
      const { eligible } = filterAllocations([stub('a', 1, 'group_2', 'run', 'running')], versions, {
        groups: [],
        tasks: ['task_2', 'task_3', 'task_1'],
      });

      // Assert
      expect(eligible[0]?.tasks).toEqual(['task_2', 'task_1']);
    });
  });

  describe('filterAllocations: -started-before', () => {
    /** T: allocations must have a task in scope that last started before it. */
    const T = Date.parse('2026-12-07T09:00:00Z');
    const BEFORE = '2026-12-07T08:59:59.999999999Z';
    const AT = '2026-12-07T09:00:00Z';
    const AFTER = '2026-12-07T09:30:00Z';

    const state = (State: string, StartedAt: string | null): TaskState => ({ State, StartedAt });
    /** A running allocation of group_2 (tasks task_1, task_2 in version 1) with these task states. */
    const alloc = (id: string, states: Record<string, TaskState>): AllocListStub => ({
      ...stub(id, 1, 'group_2', 'run', 'running'),
      TaskStates: states,
    });

    it.each([
      {
        name: 'keeps an allocation whose running task started before T',
        states: { task_1: state('running', BEFORE) },
        opts: {},
        kept: true,
      },
      {
        name: 'skips an allocation whose running task started exactly at T',
        states: { task_1: state('running', AT) },
        opts: {},
        kept: false,
      },
      {
        name: 'skips an allocation whose running task started after T',
        states: { task_1: state('running', AFTER) },
        opts: {},
        kept: false,
      },
      {
        name: 'keeps an allocation when one running task of two is stale',
        states: { task_1: state('running', AFTER), task_2: state('running', BEFORE) },
        opts: {},
        kept: true,
      },
      {
        name: 'skips an allocation whose only stale task is dead (not restarted without -all-tasks)',
        states: { task_1: state('running', AFTER), task_2: state('dead', BEFORE) },
        opts: {},
        kept: false,
      },
      {
        name: 'keeps it with -all-tasks, which restarts the dead task too',
        states: { task_1: state('running', AFTER), task_2: state('dead', BEFORE) },
        opts: { allTasks: true },
        kept: true,
      },
      {
        name: 'keeps it with -reschedule, which replaces every task',
        states: { task_1: state('running', AFTER), task_2: state('dead', BEFORE) },
        opts: { reschedule: true },
        kept: true,
      },
      {
        name: 'looks only at the -task tasks',
        states: { task_1: state('running', BEFORE), task_2: state('running', AFTER) },
        opts: { tasks: ['task_2'] },
        kept: false,
      },
      {
        name: 'keeps a -task task that started before T',
        states: { task_1: state('running', AFTER), task_2: state('running', BEFORE) },
        opts: { tasks: ['task_2'] },
        kept: true,
      },
      {
        name: 'counts a task that never started (null) as fresh',
        states: { task_1: state('pending', null) },
        opts: { allTasks: true },
        kept: false,
      },
      {
        name: "counts a task that never started (Go's zero time) as fresh",
        states: { task_1: state('pending', '0001-01-01T00:00:00Z') },
        opts: { allTasks: true },
        kept: false,
      },
    ])('$name', ({ states, opts, kept }) => {
      // Arrange
      const stubs = [alloc('a', states)];

      // Act
      const { eligible, skipped } = filterAllocations(stubs, versions, {
        groups: [],
        tasks: [],
        ...opts,
        startedBefore: T,
      });

      // Assert
      expect(eligible.map((e) => e.id)).toEqual(kept ? ['a'] : []);
      expect(skipped).toEqual(kept ? [] : [{ id: 'a', reason: { kind: 'started-after', startedBefore: T } }]);
    });

    it("applies after Nomad's rules and after done, so those reasons win", () => {
      // Arrange
      const fresh = { task_1: state('running', AFTER) };
      const stubs = [
        { ...stub('stopped', 1, 'group_2', 'stop', 'complete'), TaskStates: fresh },
        { ...stub('replaced', 1, 'group_2', 'run', 'running', 'next'), TaskStates: fresh },
        { ...stub('other-group', 1, 'group_1', 'run', 'running'), TaskStates: fresh },
        alloc('done', fresh),
        alloc('fresh', fresh),
      ];

      // Act
      const { skipped } = filterAllocations(stubs, versions, {
        groups: ['group_2'],
        tasks: [],
        done: new Set(['done']),
        startedBefore: T,
      });

      // Assert
      expect(skipped.map((s) => [s.id, s.reason.kind])).toEqual([
        ['stopped', 'status'],
        ['replaced', 'replaced'],
        ['other-group', 'group'],
        ['done', 'done'],
        ['fresh', 'started-after'],
      ]);
    });

    it('skips nothing as fresh without -started-before', () => {
      // Arrange
      const stubs = [alloc('a', { task_1: state('running', AFTER) })];

      // Act
      const { eligible } = filterAllocations(stubs, versions, { groups: [], tasks: [] });

      // Assert
      expect(eligible.map((e) => e.id)).toEqual(['a']);
    });
  });

  describe('sortAllocations', () => {
    it('orders by CreateIndex descending, ties by ID ascending, without mutating the input', () => {
      // Arrange
      const input = [
        { ID: 'b', CreateIndex: 5 },
        { ID: 'c', CreateIndex: 7 },
        { ID: 'a', CreateIndex: 5 },
        { ID: 'd', CreateIndex: 1 },
      ];

      // Act
      const sorted = sortAllocations(input);

      // Assert
      expect(sorted.map((s) => s.ID)).toEqual(['c', 'a', 'b', 'd']);
      expect(input.map((s) => s.ID)).toEqual(['b', 'c', 'a', 'd']);
    });
  });
});
