/** Minimal Nomad JSON objects, as a server would send them, for client tests. */

export function jobJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ID: 'web',
    Name: 'web',
    Namespace: 'default',
    Type: 'service',
    Version: 3,
    TaskGroups: [{ Name: 'api', Count: 2, Tasks: [{ Name: 'server', Driver: 'docker', Lifecycle: null }] }],
    Multiregion: null,
    ...overrides,
  };
}

export function allocJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ID: '8d1f4a6e-0000-4000-8000-000000000001',
    Namespace: 'default',
    JobID: 'web',
    TaskGroup: 'api',
    DesiredStatus: 'run',
    ClientStatus: 'running',
    TaskStates: {
      server: { State: 'running', Failed: false, Restarts: 0, Events: [{ Type: 'Started', Time: 1 }] },
    },
    CreateIndex: 10,
    ModifyIndex: 12,
    ...overrides,
  };
}

export function evalJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ID: 'e1', JobID: 'web', Status: 'complete', CreateIndex: 20, ModifyIndex: 21, ...overrides };
}
