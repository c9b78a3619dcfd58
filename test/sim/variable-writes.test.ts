/**
 * Plain variable writes (`nomad var put`: `PUT /v1/var/:path`, `?cas=`) and the variables listing
 * (`GET /v1/vars?prefix=`), as Nomad's command/agent/variable_endpoint.go and
 * nomad/variables_endpoint.go answer them: every write moves ModifyIndex and ModifyTime (ns, the
 * simulated clock); the listing leaves out, without an error, what the token may not `list`.
 */
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { call, get, put } from './helpers/http';
import { type ManualClock, manualClock } from './helpers/manual-clock';

interface Variable {
  Namespace: string;
  Path: string;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
  Items?: Record<string, string>;
}

const PATH = 'nomad/jobs/shared/db';
const WRITER = 'writer-secret';
const LISTER = 'lister-secret';
const NOBODY = 'nobody-secret';
/** Broad rules and a narrower one that gives less: Nomad lets the closest rule decide. */
const NARROWED = 'narrowed-secret';

let sim: RunningSimulator;
let clock: ManualClock;
beforeEach(async () => {
  clock = manualClock(Date.UTC(2026, 11, 7, 9, 0, 0));
  sim = await startSimulator({
    clock,
    scenario: {
      namespaces: ['payments'],
      nodes: [],
      jobs: [],
      acl: {
        enabled: true,
        tokens: [
          { secret: 'root', management: true },
          { secret: WRITER, variables: { payments: { 'nomad/jobs/*': ['write'] } } },
          { secret: LISTER, variables: { '*': { 'nomad/jobs/shared/*': ['list'] } } },
          { secret: NOBODY, namespaces: { '*': ['read-job'] } },
          {
            secret: NARROWED,
            variables: {
              '*': { '*': ['list'], 'nomad/jobs/*': ['read'] },
              payments: { 'nomad/jobs/private': ['write'] },
            },
          },
        ],
      },
    },
  });
});
afterEach(async () => sim.close());

const write = (items: unknown, query = '', token = 'root', path = PATH) =>
  put<Variable>(sim.address, `/v1/var/${path}?namespace=payments${query}`, { Items: items }, token);

describe('the simulator’s plain variable writes', () => {
  it('creates, then moves ModifyIndex and ModifyTime at every write, the same items included', async () => {
    // Act
    const created = await write({ password: 'one' });
    clock.advance(5_000);
    const rewritten = await write({ password: 'one' });
    const read = await get<Variable>(sim.address, `/v1/var/${PATH}?namespace=payments`, 'root');

    // Assert
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ Namespace: 'payments', Path: PATH, Items: { password: 'one' } });
    expect(created.json.ModifyTime).toBe(Date.UTC(2026, 11, 7, 9, 0, 0) * 1_000_000);
    expect(rewritten.json.ModifyIndex).toBeGreaterThan(created.json.ModifyIndex);
    expect(rewritten.json.ModifyTime).toBe(created.json.ModifyTime + 5_000 * 1_000_000);
    expect(rewritten.json).toMatchObject({
      CreateIndex: created.json.CreateIndex,
      CreateTime: created.json.CreateTime,
    });
    expect(rewritten.headers.get('X-Nomad-Index')).toBe(String(rewritten.json.ModifyIndex));
    expect(read.json).toEqual(rewritten.json);
  });

  it('writes with cas only over the index given, and answers the conflict as Nomad does', async () => {
    // Arrange
    const created = await write({ password: 'one' }, '&cas=0');

    // Act
    const again = await write({ password: 'two' }, '&cas=0');
    const stale = await write({ password: 'two' }, `&cas=${created.json.ModifyIndex + 1}`);
    const missing = await write({ password: 'two' }, '&cas=7', 'root', 'nomad/jobs/other');
    const blind = await write({ password: 'two' }, '&cas=0', WRITER);
    const current = await write({ password: 'two' }, `&cas=${created.json.ModifyIndex}`);

    // Assert
    expect(created.status).toBe(200);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      Path: PATH,
      ModifyIndex: created.json.ModifyIndex,
      Items: { password: 'one' },
    });
    expect(stale.status).toBe(409);
    expect(missing.status).toBe(409);
    expect(missing.json).toEqual({
      Namespace: 'payments',
      Path: 'nomad/jobs/other',
      CreateIndex: 0,
      ModifyIndex: 0,
      CreateTime: 0,
      ModifyTime: 0,
    });
    expect(blind.status).toBe(409);
    expect(blind.json).not.toHaveProperty('Items');
    expect(current.status).toBe(200);
    expect(current.json.Items).toEqual({ password: 'two' });
  });

  it.each([
    {
      name: 'no items',
      body: {},
      query: '',
      token: 'root',
      status: 400,
      text: 'variable missing required Items object',
    },
    {
      name: 'a cas that is not a number',
      body: { Items: { a: 'b' } },
      query: '&cas=x',
      token: 'root',
      status: 400,
      text: 'can not parse cas: strconv.ParseUint: parsing "x": invalid syntax',
    },
    {
      name: 'cas with a lock operation',
      body: { Items: { a: 'b' } },
      query: '&cas=0&lock-acquire',
      token: 'root',
      status: 400,
      text: "CAS can't be used with lock operations",
    },
    {
      name: 'a token without write',
      body: { Items: { a: 'b' } },
      query: '',
      token: LISTER,
      status: 403,
      text: 'Permission denied',
    },
  ])('refuses a write with $name, writing nothing', async ({ body, query, token, status, text }) => {
    // Act
    const res = await call(sim.address, `/v1/var/${PATH}?namespace=payments${query}`, {
      method: 'PUT',
      body,
      token,
    });

    // Assert
    expect(res.status).toBe(status);
    expect(res.text).toBe(text);
    expect(sim.control.counters()['PUT /v1/var/:path']).toBe(1);
    expect((await get(sim.address, `/v1/var/${PATH}?namespace=payments`, 'root')).status).toBe(404);
  });

  it('refuses a path Nomad refuses, with the server’s text', async () => {
    // Act
    const res = await write({ a: 'b' }, '', 'root', 'nomad/other');

    // Assert
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      'RPC Error:: 400,only paths at "nomad/jobs" or "nomad/job-templates" and below are valid paths under the top-level "nomad" directory',
    );
  });

  it('refuses items over Nomad’s 64 KiB, counted in bytes of keys and values, and writes nothing', async () => {
    // Arrange: 65,536 bytes exactly (€ is 3 bytes), then one byte more
    const atLimit = { k: `${'€'.repeat(21_845)}` };
    const overLimit = { k: `${'€'.repeat(21_845)}x` };

    // Act
    const over = await write(overLimit);
    const afterOver = await get(sim.address, `/v1/var/${PATH}?namespace=payments`, 'root');
    const at = await write(atLimit);

    // Assert
    expect(over.status).toBe(400);
    expect(over.text).toBe('RPC Error:: 400,variables are limited to 64KiB in total size');
    expect(afterOver.status).toBe(404);
    expect(at.status).toBe(200);
  });

  it('checks write before the size: a token without it gets 403, not the size', async () => {
    // Act
    const res = await write({ k: 'x'.repeat(70_000) }, '', NOBODY);

    // Assert
    expect(res.status).toBe(403);
  });

  it('never writes over a lock another holds', async () => {
    // Arrange
    await put(
      sim.address,
      `/v1/var/${PATH}?namespace=payments&lock-acquire`,
      { Items: { owner: 'run-1' } },
      'root',
    );

    // Act
    const res = await write({ password: 'two' });

    // Assert
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ Path: PATH, ModifyIndex: 0 });
    const read = await get<Variable>(sim.address, `/v1/var/${PATH}?namespace=payments`, 'root');
    expect(read.json.Items).toEqual({ owner: 'run-1' });
  });
});

describe('the simulator’s variables listing', () => {
  beforeEach(async () => {
    for (const path of [PATH, 'nomad/jobs/shared/cache', 'nomad/jobs/private'])
      await write({ a: 'b' }, '', 'root', path);
    await put(sim.address, `/v1/var/${PATH}?namespace=default`, { Items: { a: 'b' } }, 'root');
  });

  it('leaves out, without an error, what the token may not list; metadata only, sorted by namespace and path', async () => {
    // Act
    const asLister = await get<Variable[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs&namespace=payments',
      LISTER,
    );
    const everywhere = await get<Variable[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs/shared&namespace=*',
      LISTER,
    );
    const asNobody = await get<Variable[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs&namespace=payments',
      NOBODY,
    );
    const asWriter = await get<Variable[]>(sim.address, '/v1/vars?namespace=payments', WRITER);
    const unknown = await get(sim.address, '/v1/vars?namespace=payments', 'who-is-this');

    // Assert
    expect(asLister.status).toBe(200);
    expect(asLister.json.map((v) => v.Path)).toEqual(['nomad/jobs/shared/cache', PATH]);
    expect(asLister.json.every((v) => v.Items === undefined && v.ModifyTime > 0)).toBe(true);
    expect(everywhere.json.map((v) => `${v.Namespace}/${v.Path}`)).toEqual([
      `default/${PATH}`,
      'payments/nomad/jobs/shared/cache',
      `payments/${PATH}`,
    ]);
    expect(asNobody).toMatchObject({ status: 200, json: [] });
    expect(asWriter).toMatchObject({ status: 200, json: [] });
    expect(unknown.status).toBe(403);
  });

  it('carries the variables table’s index, and a blocking listing wakes on a write', async () => {
    // Arrange: the last write was a variable's, so the variables table is at the cluster's index.
    const tableIndex = sim.control.state().index;
    const first = await get<Variable[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs/private&namespace=payments',
      LISTER,
    );
    const index = Number(first.headers.get('X-Nomad-Index'));

    // Act
    const held = get<Variable[]>(
      sim.address,
      `/v1/vars?prefix=nomad/jobs/shared&namespace=payments&index=${index}&wait=1s`,
      LISTER,
    );
    await write({ password: 'rotated' });
    const woken = await held;

    // Assert: an empty listing (the token may not list nomad/jobs/private) still carries the table's index.
    expect(first.json).toEqual([]);
    expect(index).toBe(tableIndex);
    expect(Number(woken.headers.get('X-Nomad-Index'))).toBe(index + 1);
    expect(woken.json.find((v) => v.Path === PATH)?.ModifyIndex).toBe(index + 1);
  });

  it('lets the closest rule decide, never a union of the rules that match', async () => {
    // Act
    const listed = await get<Variable[]>(
      sim.address,
      '/v1/vars?prefix=nomad/jobs&namespace=payments',
      NARROWED,
    );
    const readPrivate = await get(sim.address, '/v1/var/nomad/jobs/private?namespace=payments', NARROWED);
    const readShared = await get<Variable>(sim.address, `/v1/var/${PATH}?namespace=payments`, NARROWED);

    // Assert: nomad/jobs/private has its own rule (write only), which takes away the glob's read and list.
    expect(listed.json.map((v) => v.Path)).toEqual(['nomad/jobs/shared/cache', PATH]);
    expect(readPrivate.status).toBe(403);
    expect(readShared.json.Items).toEqual({ a: 'b' });
  });
});
