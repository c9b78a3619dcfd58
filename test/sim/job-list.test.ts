// Scenario: the fleet's job selection, `GET /v1/jobs?namespace=*&filter=...&meta=true`, under
// ACLs with a token that may list two of three namespaces: Nomad's `Job.List` evaluates the
// filter on the whole job, leaves out the namespaces the token may not list (a 403 for `*` only
// when no namespace rule grants list-jobs), adds `Meta` only with `meta=true`, pages over what
// the filter kept in namespace-then-ID order, and answers a filter it cannot read or a field that
// does not exist with its 400s.
import type { Scenario } from '../../sim/index';
import type { SimJobListStub } from '../../sim/model/render';
import { group, job, nodes } from './helpers/fixtures';
import { get } from './helpers/http';
import { openTarget, simControl, type Target } from './helpers/target';

const teamJob = (id: string, namespace: string, team: string, groupName = 'web') =>
  job(id, 'service', [group(groupName, 1, {}, '1h')], { Namespace: namespace, Meta: { team } });

const scenario: Scenario = {
  namespaces: ['prod', 'staging'],
  nodes: nodes(2),
  jobs: [
    teamJob('api', 'default', 'payments', 'api'),
    teamJob('web', 'prod', 'payments'),
    teamJob('web', 'staging', 'payments'),
    teamJob('search', 'prod', 'search'),
    teamJob('billing', 'prod', 'payments', 'worker'),
  ],
  acl: {
    enabled: true,
    tokens: [
      { secret: 'root', management: true },
      {
        secret: 'fleet',
        namespaces: { default: ['list-jobs', 'read-job'], prod: ['list-jobs', 'read-job'] },
      },
      { secret: 'nobody', namespaces: {} },
      { secret: 'ghost', namespaces: { ghost: ['list-jobs'] } },
    ],
  },
};

const jobs = (query: string, token = 'fleet') =>
  get<SimJobListStub[]>(target.address, `/v1/jobs?${query}`, token);
const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;
let target: Target;

describe('simulator: the job list', () => {
  beforeAll(async () => {
    target = await openTarget();
    simControl(target).seed(scenario);
  });
  afterAll(() => target.close());

  it('selects by meta across every namespace the token may list, with Meta only when asked', async () => {
    // Act
    const withMeta = await jobs(`namespace=*&${filter('Meta.team == "payments"')}&meta=true`);
    const without = await jobs(`namespace=*&${filter('Meta.team == "payments"')}`);

    // Assert: staging's web is left out silently; sorted by ID, then namespace.
    expect(withMeta.status).toBe(200);
    expect(withMeta.json.map((s) => `${s.Namespace}/${s.ID}`)).toEqual([
      'default/api',
      'prod/billing',
      'prod/web',
    ]);
    expect(withMeta.json.map((s) => s.Meta)).toEqual([
      { team: 'payments' },
      { team: 'payments' },
      { team: 'payments' },
    ]);
    expect(without.json.map((s) => s.ID)).toEqual(['api', 'billing', 'web']);
    expect(without.json.every((s) => !('Meta' in s))).toBe(true);
  });

  it('reads meta as Go reads a bool, and refuses another value with Nomad’s text', async () => {
    // Act
    const one = await jobs('namespace=prod&meta=1&prefix=bill');
    const bad = await jobs('namespace=prod&meta=yes');

    // Assert
    expect(one.json.map((s) => s.Meta)).toEqual([{ team: 'payments' }]);
    expect([bad.status, bad.text]).toEqual([
      500,
      'Failed to parse value of "meta" (yes) as a bool: strconv.ParseBool: parsing "yes": invalid syntax',
    ]);
  });

  it('evaluates the filter on the whole job, not on the stub', async () => {
    // Act: task groups are not in the stub.
    const answer = await jobs(`namespace=prod&${filter('TaskGroups.0.Name == "worker"')}`);

    // Assert
    expect(answer.json.map((s) => s.ID)).toEqual(['billing']);
    expect(answer.json[0]).toMatchObject({
      NodePool: 'default',
      Multiregion: null,
      Priority: 50,
      Type: 'service',
    });
  });

  it('pages over the jobs the filter kept', async () => {
    // Act
    const first = await jobs(`namespace=*&per_page=2&${filter('Meta.team == payments')}`);
    const token = first.headers.get('X-Nomad-NextToken') ?? '';
    const second = await jobs(
      `namespace=*&per_page=2&next_token=${token}&${filter('Meta.team == payments')}`,
    );

    // Assert
    expect(first.json.map((s) => s.ID)).toEqual(['api', 'billing']);
    expect(token).toBe('prod.web');
    expect(second.json.map((s) => `${s.Namespace}/${s.ID}`)).toEqual(['prod/web']);
    expect(second.headers.get('X-Nomad-NextToken')).toBeNull();
  });

  it('answers * with an empty list to a token whose rules name no existing namespace, a 403 to one with none', async () => {
    // Act
    const ghost = await jobs('namespace=*', 'ghost');
    const nobody = await jobs('namespace=*', 'nobody');
    const one = await jobs('namespace=prod', 'nobody');

    // Assert
    expect([ghost.status, ghost.json]).toEqual([200, []]);
    expect([nobody.status, nobody.text]).toEqual([403, 'Permission denied']);
    expect(one.status).toBe(403);
  });

  it('orders every namespace’s jobs by namespace, then ID', async () => {
    // Act
    const all = await jobs('namespace=*', 'root');

    // Assert
    expect(all.json.map((s) => `${s.Namespace}/${s.ID}`)).toEqual([
      'default/api',
      'prod/billing',
      'prod/search',
      'prod/web',
      'staging/web',
    ]);
  });

  it('refuses a filter it cannot read with Nomad’s 400 before reading anything', async () => {
    // Act
    const answer = await jobs(`namespace=*&${filter('Meta.team = "payments"')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(
      'failed to create result paginator: failed to read filter expression: 1:11 (10): no match found, expected: "!=", "==", "contains", "in", "is", "matches", "not" or [ \\t\\r\\n]',
    );
  });

  it('refuses a field jobs do not have with the page error', async () => {
    // Act
    const answer = await jobs(`namespace=*&${filter('Metadata.team == "payments"')}`);

    // Assert
    expect(answer.status).toBe(400);
    expect(answer.text).toBe(
      'failed to read result page: error finding value in datum: /Metadata/team at part 0: couldn\'t find key: struct field with name "Metadata"',
    );
  });
});
