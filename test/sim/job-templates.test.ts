// Scenario: a job with task templates and a vault block registered through PUT /v1/jobs, then read
// back as GET /v1/job/:id serves it: every template field filled with the API's defaults
// (api/tasks.go Template.Canonicalize, Vault.Canonicalize), what the server refuses refused with its
// texts (nomad/structs/structs.go Template.Validate and Task.Validate), a field of the wrong type
// refused by the agent's decoder, and the same specification registered again kept as one version.
import { type RunningSimulator, startSimulator } from '../../sim/index';
import { nodes } from './helpers/fixtures';
import { get, put } from './helpers/http';
import { TEST_TIME_SCALE } from './helpers/target';

let sim: RunningSimulator;
beforeEach(async () => {
  sim = await startSimulator({ timeScale: TEST_TIME_SCALE, scenario: { nodes: nodes(1), jobs: [] } });
});
afterEach(async () => sim.close());

/** A one-task service job whose task has `templates` (and `vault` when given), as JSON sends them. */
function templated(templates: unknown[], vault?: unknown): unknown {
  const task = {
    Name: 'app',
    Driver: 'mock_driver',
    Config: { run_for: '1h' },
    Templates: templates,
    ...(vault === undefined ? {} : { Vault: vault }),
  };
  return {
    ID: 'app',
    Name: 'app',
    Type: 'service',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'web', Count: 1, Tasks: [task] }],
  };
}

interface Served {
  Version: number;
  TaskGroups: Array<{
    Tasks: Array<{ Templates: Array<Record<string, unknown>>; Vault?: Record<string, unknown> }>;
  }>;
}
const served = async () =>
  (await get<Served>(sim.address, '/v1/job/app')).json.TaskGroups[0]?.Tasks[0] ?? { Templates: [] };

describe('simulator: task templates', () => {
  it('serves every template and vault field, with the API’s defaults for those left out, as Nomad’s structs', async () => {
    // Act
    const registered = await put(sim.address, '/v1/jobs', {
      Job: templated(
        [
          { EmbeddedTmpl: '{{ with nomadVar "nomad/jobs/app" }}{{ .k }}{{ end }}', DestPath: 'local/a.env' },
          {
            SourcePath: '/etc/tpl/b.tpl',
            DestPath: 'local/b',
            ChangeMode: 'signal',
            ChangeSignal: 'sigusr1',
          },
        ],
        { Role: 'app', Policies: ['old-style'] },
      ),
    });
    const task = await served();

    // Assert
    expect(registered.status).toBe(200);
    expect(task.Templates?.[0]).toEqual({
      SourcePath: '',
      DestPath: 'local/a.env',
      EmbeddedTmpl: '{{ with nomadVar "nomad/jobs/app" }}{{ .k }}{{ end }}',
      ChangeMode: 'restart',
      ChangeSignal: '',
      ChangeScript: null,
      Once: false,
      Splay: 5_000_000_000,
      Perms: '0644',
      Uid: null,
      Gid: null,
      LeftDelim: '{{',
      RightDelim: '}}',
      Envvars: false,
      VaultGrace: 0,
      Wait: null,
      ErrMissingKey: false,
    });
    expect(task.Templates?.[1]).toMatchObject({
      SourcePath: '/etc/tpl/b.tpl',
      EmbeddedTmpl: '',
      ChangeMode: 'signal',
      ChangeSignal: 'SIGUSR1',
    });
    expect(task.Vault).toEqual({
      Role: 'app',
      Env: true,
      DisableFile: false,
      Namespace: '',
      Cluster: 'default',
      ChangeMode: 'restart',
      ChangeSignal: 'SIGHUP',
      AllowTokenExpiration: false,
    });
  });

  it('serves null templates and vault for a task without them, an empty list included', async () => {
    // Act
    await put(sim.address, '/v1/jobs', { Job: templated([]) });
    const task = await served();

    // Assert: structs.Task prints an unset slice or pointer as null, not absent.
    expect(task.Templates).toBeNull();
    expect(task.Vault).toBeNull();
  });

  it('keeps one version when the same specification is registered again', async () => {
    // Arrange
    const spec = templated([{ EmbeddedTmpl: 'x', DestPath: 'local/x' }]);
    await put(sim.address, '/v1/jobs', { Job: spec });

    // Act
    await put(sim.address, '/v1/jobs', { Job: spec });
    const versions = await get<{ Versions: unknown[] }>(sim.address, '/v1/job/app/versions');

    // Assert
    expect(versions.json.Versions).toHaveLength(1);
  });

  it.each([
    {
      name: 'nothing to render',
      template: { DestPath: 'local/x' },
      error: 'Must specify a source path or have an embedded template',
    },
    {
      name: 'no destination',
      template: { EmbeddedTmpl: 'x' },
      error: 'Must specify a destination for the template',
    },
    {
      name: 'a destination out of the allocation',
      template: { EmbeddedTmpl: 'x', DestPath: '../../../etc/passwd' },
      error: 'destination escapes allocation directory',
    },
    {
      name: 'an unknown change mode',
      template: { EmbeddedTmpl: 'x', DestPath: 'local/x', ChangeMode: 'reload' },
      error: 'Invalid change mode. Must be one of the following: noop, signal, script, restart',
    },
    {
      name: 'a signal on an env template',
      template: { EmbeddedTmpl: 'x', DestPath: 'local/x', ChangeMode: 'signal', Envvars: true },
      error: 'cannot use signals with env var templates',
    },
    {
      name: 'bad permissions',
      template: { EmbeddedTmpl: 'x', DestPath: 'local/x', Perms: '0999' },
      error: 'Failed to parse "0999" as octal: strconv.ParseUint: parsing "0999": invalid syntax',
    },
  ])('refuses a template with $name, as the server does', async ({ template, error }) => {
    // Act
    const res = await put(sim.address, '/v1/jobs', { Job: templated([template]) });

    // Assert
    expect(res.status).toBe(500);
    expect(res.text).toContain(`* Template 1 validation failed: 1 error occurred:\n\t* ${error}\n`);
    expect(res.text).toContain('* Task app validation failed:');
    expect((await get(sim.address, '/v1/job/app')).status).toBe(404);
  });

  it('refuses two templates on one destination, and a field of the wrong type as the decoder does', async () => {
    // Act
    const shared = await put(sim.address, '/v1/jobs', {
      Job: templated([
        { EmbeddedTmpl: 'a', DestPath: 'local/x' },
        { EmbeddedTmpl: 'b', DestPath: 'local/x' },
      ]),
    });
    const typed = await put(sim.address, '/v1/jobs', {
      Job: templated([{ EmbeddedTmpl: 'a', Splay: '5s' }]),
    });

    // Assert
    expect(shared.status).toBe(500);
    expect(shared.text).toContain('* Template 2 has same destination as 1');
    expect(typed.status).toBe(400);
    expect(typed.text).toBe(
      'json: cannot unmarshal string into Go struct field Template.Job.TaskGroups.Tasks.Templates.Splay of type time.Duration',
    );
  });
});
