import {
  consumerVerdict,
  implicitPaths,
  type JobSpecTemplates,
  jobReads,
  kvPath,
  parsePathPattern,
  type TemplateSpec,
} from '../../lib/fleet/consumers';

/** A job of one group `app` with one task `server` and these templates. */
function jobWith(
  templates: readonly TemplateSpec[],
  extra: Partial<JobSpecTemplates> = {},
): JobSpecTemplates {
  return {
    ID: 'web',
    TaskGroups: [{ Name: 'app', Tasks: [{ Name: 'server', Templates: templates }] }],
    ...extra,
  };
}

const uses = (...texts: string[]) => texts.map(parsePathPattern);

describe('consumers', () => {
  describe('parsePathPattern', () => {
    it.each([
      { text: 'nomad/jobs/shared/db', expected: { path: 'nomad/jobs/shared/db', prefix: false } },
      { text: '/nomad/jobs/shared/db/', expected: { path: 'nomad/jobs/shared/db', prefix: false } },
      { text: 'nomad/jobs/shared/*', expected: { path: 'nomad/jobs/shared/', prefix: true } },
      { text: '*', expected: { path: '', prefix: true } },
    ])('reads $text', ({ text, expected }) => {
      // Act / Assert
      expect(parsePathPattern(text)).toEqual(expected);
    });
  });

  describe('implicitPaths', () => {
    it('lists the four paths a task reads without a policy', () => {
      // Act / Assert
      expect(implicitPaths('web', 'app', 'server')).toEqual([
        'nomad/jobs',
        'nomad/jobs/web',
        'nomad/jobs/web/app',
        'nomad/jobs/web/app/server',
      ]);
    });
  });

  describe('kvPath', () => {
    it.each([
      { path: 'kv/data/payments/db', expected: 'kv/payments/db' },
      { path: 'kv/payments/db', expected: 'kv/payments/db' },
      { path: 'kv/data', expected: 'kv/data' },
    ])('takes $path as $expected', ({ path, expected }) => {
      // Act / Assert
      expect(kvPath(path)).toEqual(expected);
    });
  });

  describe('consumerVerdict', () => {
    const nomadVar = (path: string) => ({ EmbeddedTmpl: `{{ with nomadVar "${path}" }}{{ .p }}{{ end }}` });

    it.each([
      {
        name: 'a nomadVar of the path is a consumer',
        job: jobWith([nomadVar('nomad/jobs/shared/db')]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'a nomadVar of another path is not',
        job: jobWith([nomadVar('nomad/jobs/shared/cache')]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'not-a-consumer',
      },
      {
        name: 'a nomadVar under a prefix given with * is a consumer',
        job: jobWith([nomadVar('nomad/jobs/shared/db')]),
        variables: ['nomad/jobs/shared/*'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'a nomadVarList whose prefix covers the path is a consumer',
        job: jobWith([{ EmbeddedTmpl: '{{ range nomadVarList "nomad/jobs/shared" }}{{ end }}' }]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'a nomadVarList of a narrower prefix than a * given is a consumer',
        job: jobWith([{ EmbeddedTmpl: '{{ range nomadVarList "cfg/a/b" }}{{ end }}' }]),
        variables: ['cfg/*'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'a nomadVarList of an unrelated prefix is not',
        job: jobWith([{ EmbeddedTmpl: '{{ range nomadVarList "cfg/b" }}{{ end }}' }]),
        variables: ['cfg/a/db'],
        secrets: [],
        expected: 'not-a-consumer',
      },
      {
        name: 'a job reads its implicit job path with no template at all',
        job: { ID: 'shared', TaskGroups: [{ Name: 'db', Tasks: [{ Name: 'migrate' }] }] },
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'the implicit paths stop at the task (no deeper path is implied)',
        job: { ID: 'shared', TaskGroups: [{ Name: 'db', Tasks: [{ Name: 'migrate' }] }] },
        variables: ['nomad/jobs/shared/db/migrate/extra'],
        secrets: [],
        expected: 'not-a-consumer',
      },
      {
        name: 'a dispatched child reads its parent’s implicit path',
        job: {
          ID: 'report/dispatch-1-ab',
          ParentID: 'report',
          TaskGroups: [{ Name: 'run', Tasks: [{ Name: 'main' }] }],
        },
        variables: ['nomad/jobs/report'],
        secrets: [],
        expected: 'consumer',
      },
      {
        name: 'a secret given as vault kv get takes it matches the template’s KV v2 path',
        job: jobWith([{ EmbeddedTmpl: '{{ with secret "kv/data/payments/db" }}{{ end }}' }]),
        variables: [],
        secrets: ['kv/payments/db'],
        expected: 'consumer',
      },
      {
        name: 'a secret given with data/ matches a template that omits it',
        job: jobWith([{ EmbeddedTmpl: '{{ with secret "kv/payments/db" }}{{ end }}' }]),
        variables: [],
        secrets: ['kv/data/payments/db'],
        expected: 'consumer',
      },
      {
        name: 'a secret prefix covers the KV v2 path',
        job: jobWith([{ EmbeddedTmpl: '{{ with secret "kv/data/payments/db" }}{{ end }}' }]),
        variables: [],
        secrets: ['kv/payments/*'],
        expected: 'consumer',
      },
      {
        name: 'a nomadVar of the path is no consumer of a secret',
        job: jobWith([nomadVar('kv/payments/db')]),
        variables: [],
        secrets: ['kv/payments/db'],
        expected: 'not-a-consumer',
      },
      {
        name: 'a template read from a file makes a non-consumer not inspectable',
        job: jobWith([{ SourcePath: 'local/app.tpl', DestPath: 'local/app.env' }]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'not-inspectable',
      },
      {
        name: 'a dynamic nomadVar makes it not inspectable for variables',
        job: jobWith([{ EmbeddedTmpl: '{{ with nomadVar (env "P") }}{{ end }}', DestPath: 'local/x' }]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'not-inspectable',
      },
      {
        name: 'a dynamic nomadVar does not hide a secret read',
        job: jobWith([{ EmbeddedTmpl: '{{ with nomadVar (env "P") }}{{ end }}', DestPath: 'local/x' }]),
        variables: [],
        secrets: ['kv/payments/db'],
        expected: 'not-a-consumer',
      },
      {
        name: 'a template read from a file does not hide a read another template shows',
        job: jobWith([{ SourcePath: 'local/app.tpl' }, nomadVar('nomad/jobs/shared/db')]),
        variables: ['nomad/jobs/shared/db'],
        secrets: [],
        expected: 'consumer',
      },
    ])('$name', ({ job, variables, secrets, expected }) => {
      // Act
      const verdict = consumerVerdict(jobReads(job), uses(...variables), uses(...secrets));

      // Assert
      expect(verdict.kind).toBe(expected);
    });

    it('names the templates it cannot inspect, and why', () => {
      // Arrange
      const job = jobWith([
        { SourcePath: 'local/app.tpl', DestPath: 'local/app.env' },
        { EmbeddedTmpl: '{{ with nomadVar $p }}{{ end }}' },
      ]);

      // Act
      const verdict = consumerVerdict(jobReads(job), uses('a/b'), []);

      // Assert
      expect(verdict).toEqual({
        kind: 'not-inspectable',
        templates: [
          { template: 'local/app.env', about: 'all', why: 'read from a file ("local/app.tpl")' },
          { template: 'template 2', about: 'variables', why: 'nomadVar with a path that is not a literal' },
        ],
      });
    });

    it('gives the consumer’s reads the paths select, the implicit ones marked', () => {
      // Arrange
      const job = jobWith([{ EmbeddedTmpl: '{{ range nomadVarList "nomad/jobs" }}{{ end }}' }], {
        ID: 'shared',
      });

      // Act
      const verdict = consumerVerdict(jobReads(job), uses('nomad/jobs/shared*'), []);

      // Assert
      expect(verdict).toEqual({
        kind: 'consumer',
        variables: [
          { path: 'nomad/jobs/shared', prefix: false, implicit: true },
          { path: 'nomad/jobs/shared/app', prefix: false, implicit: true },
          { path: 'nomad/jobs/shared/app/server', prefix: false, implicit: true },
          { path: 'nomad/jobs', prefix: true },
        ],
      });
    });
  });
});
