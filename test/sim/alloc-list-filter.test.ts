// Scenario: `GET /v1/allocations` filtered to one job without task states, the read the batch
// watch makes on a large job: the same stubs as the job's own list (every field but the task
// states), the same blocking index, and the filters the simulator cannot read refused with
// Nomad's words. The tests written with plain `it` only use the Nomad API, so they also run
// against a real agent with NOMAD_E2E_ADDR set (that is how the shape was checked).
import type { AllocListStub } from '../../lib/nomad/types';
import { nodes, seededRandom, sleepJob } from './helpers/fixtures';
import { call, eventually, get, put } from './helpers/http';
import { itSim, openTarget, type Target } from './helpers/target';

const filtered = (id: string, extra = '') =>
  `/v1/allocations?filter=${encodeURIComponent(`JobID == "${id}"`)}${extra}`;

describe('simulator: the allocations list filtered to a job', () => {
  let target: Target;
  const run = `${Date.now()}`;
  const watched = `alloc-filter-${run}`;
  const other = `alloc-filter-other-${run}`;

  beforeAll(async () => {
    target = await openTarget({ random: seededRandom(5) });
    target.control?.seed({ nodes: nodes(1), jobs: [] });
    for (const [id, count] of [
      [watched, 2],
      [other, 1],
    ] as const) {
      await put(target.address, '/v1/jobs', { Job: sleepJob(id, count) });
      await eventually(async () => {
        const allocs = (await get<AllocListStub[]>(target.address, `/v1/job/${id}/allocations`)).json;
        return allocs.filter((a) => a.ClientStatus === 'running').length === count ? allocs : undefined;
      });
    }
  });

  afterAll(async () => {
    // A real agent keeps what the tests registered.
    for (const id of [watched, other])
      await call(target.address, `/v1/job/${id}?purge=true`, { method: 'DELETE' });
    await target.close();
  });

  it('answers the job’s stubs without task states, field for field as the job’s own list', async () => {
    // Act
    const own = await get<AllocListStub[]>(target.address, `/v1/job/${watched}/allocations?all=true`);
    const list = await get<AllocListStub[]>(target.address, filtered(watched, '&task_states=false'));

    // Assert
    expect(list.status).toBe(200);
    const byId = (stubs: AllocListStub[]) => [...stubs].sort((a, b) => a.ID.localeCompare(b.ID));
    const withoutTaskStates = byId(own.json).map((stub) => ({ ...stub, TaskStates: null }));
    expect(byId(list.json)).toEqual(withoutTaskStates);
    expect(own.json.every((stub) => stub.TaskStates !== null && stub.TaskStates !== undefined)).toBe(true);
    expect(list.headers.get('X-Nomad-Index')).toBe(own.headers.get('X-Nomad-Index'));
  });

  it('keeps the task states without task_states=false, and the job’s own list ignores the parameter', async () => {
    // Act
    const list = await get<AllocListStub[]>(target.address, filtered(watched));
    const own = await get<AllocListStub[]>(
      target.address,
      `/v1/job/${watched}/allocations?task_states=false`,
    );

    // Assert
    expect(list.json.map((stub) => stub.JobID)).toEqual([watched, watched]);
    expect(list.json.every((stub) => stub.TaskStates?.['sleep'] !== undefined)).toBe(true);
    expect(own.json.every((stub) => stub.TaskStates?.['sleep'] !== undefined)).toBe(true);
  });

  it('refuses a task_states that is not a bool with Nomad’s text', async () => {
    // Act
    const answer = await get(target.address, filtered(watched, '&task_states=maybe'));

    // Assert
    expect(answer.status).toBe(500);
    expect(answer.text).toBe(
      'Failed to parse value of "task_states" (maybe) as a bool: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });

  it('refuses a filter it cannot read with a 400 in Nomad’s words', async () => {
    // Act
    const answer = await get(target.address, `/v1/allocations?filter=${encodeURIComponent('JobID ==')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/^failed to create result paginator: failed to read filter expression: /);
  });

  itSim('refuses, rather than guesses at, any filter but JobID == "<id>"', async () => {
    // Act: a valid go-bexpr filter for Nomad, which the simulator does not evaluate.
    const answer = await get(
      target.address,
      `/v1/allocations?filter=${encodeURIComponent(`JobID contains "${watched}"`)}`,
    );

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(
      `failed to create result paginator: failed to read filter expression: the simulator reads only JobID == "<id>", not JobID contains "${watched}"`,
    );
  });
});
