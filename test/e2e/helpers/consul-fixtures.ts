/**
 * The fixtures of the Consul cases (consul-gate.test.ts) on the real pair: raw_exec python
 * servers that answer as a case needs, the job that puts them behind Consul services and checks,
 * the service IDs Nomad registers them under, and a fixture's job, Consul token and cleanup.
 */
import { createServer } from 'node:net';
import type { AllocListStub, Job, TaskGroup } from '../../../lib/nomad/types';
import { readmeConsulPolicyHcl } from '../../fixtures/readme-policy';
import { ConsulPair } from './consul-pair';
import { type E2eTarget, openE2e } from './e2e-target';

const SECOND = 1e9;
const PYTHON = '/usr/bin/python3';

/** Serves 200 to every request, from 4 s after each start. */
export const SLOW = `rm -f "$NOMAD_TASK_DIR/up"; sleep 4; touch "$NOMAD_TASK_DIR/up"; exec ${PYTHON} -m http.server "$NOMAD_PORT_http" --bind 127.0.0.1`;
/** A server answering `code(restarted, n)` to its n-th request; `restarted`: started before in this task directory. */
export const server = (code: string) => `exec ${PYTHON} -c '
import http.server, os
marker = os.path.join(os.environ["NOMAD_TASK_DIR"], "started")
restarted = os.path.exists(marker)
open(marker, "a").close()
seen = [0]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        seen[0] += 1
        n = seen[0]
        code = ${code}
        self.send_response(code)
        self.end_headers()
        self.wfile.write(b"down" if code >= 500 else b"ok")
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(os.environ["NOMAD_PORT_http"])), Handler).serve_forever()
'`;
/** 200 before the restart, 500 after it. */
export const FAILING = server('500 if restarted else 200');
/** 200 before the restart; after it 200, 200, one 500, then 200 again. */
export const FLAPPING = server('500 if restarted and n == 3 else 200');

/** A script check run in the task: passing once the server is up, critical (exit 2) before. */
export const UP_CHECK = {
  Name: 'up',
  Type: 'script',
  Command: '/bin/sh',
  Args: ['-c', 'test -e "$NOMAD_TASK_DIR/up" || exit 2'],
  Interval: SECOND,
  Timeout: SECOND,
};

/** What a fixture job runs: its server, and the checks on it. */
export interface JobSpec {
  readonly script: string;
  /** A task service `<service>-task` holding this check. */
  readonly taskCheck?: object;
  /** Seconds between two runs of the group service's `http` check (default 1). */
  readonly checkEvery?: number;
}

/** 2 allocations of `spec.script` behind a group service `<service>` with an `http` check. */
function consulJob(id: string, service: string, spec: JobSpec): Job {
  const { script, taskCheck, checkEvery = 1 } = spec;
  const group = {
    Name: 'web',
    Count: 2,
    Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
    RestartPolicy: { Attempts: 0, Delay: SECOND, Interval: 1800 * SECOND, Mode: 'fail' },
    // The first deployment is over once the checks pass for 1 s, not Nomad's default 10 s.
    Update: { MinHealthyTime: SECOND, HealthyDeadline: 60 * SECOND, HealthCheck: 'checks' },
    Services: [
      {
        Name: service,
        Provider: 'consul',
        PortLabel: 'http',
        Checks: [{ Name: 'http', Type: 'http', Path: '/', Interval: checkEvery * SECOND, Timeout: SECOND }],
      },
    ],
    Tasks: [
      {
        Name: 'server',
        Driver: 'raw_exec',
        Config: { command: '/bin/sh', args: ['-c', script] },
        Services:
          taskCheck === undefined
            ? []
            : [{ Name: `${service}-task`, Provider: 'consul', PortLabel: 'http', Checks: [taskCheck] }],
      },
    ],
  } as unknown as TaskGroup;
  return { ID: id, Type: 'service', Datacenters: ['*'], Priority: 50, TaskGroups: [group] };
}

/** Allocations to run, newest first (ties by ID): the order the command handles them in. */
export const inOrder = (all: AllocListStub[]) =>
  all
    .filter((a) => a.DesiredStatus === 'run')
    .sort((a, b) => b.CreateIndex - a.CreateIndex || (a.ID < b.ID ? -1 : 1));
/** Unix ms of the allocation's last `type` event of task "server". */
export const lastEventMs = (a: AllocListStub | undefined, type: string) =>
  ((a?.TaskStates?.['server']?.Events ?? []).findLast((e) => e.Type === type)?.Time ?? Number.NaN) / 1e6;
/** The service IDs Nomad registers for an allocation (`client/serviceregistration/id.go` `MakeAllocServiceID`). */
export const groupServiceId = (alloc: string, service: string) =>
  `_nomad-task-${alloc}-group-web-${service}-http`;
export const taskServiceId = (alloc: string, service: string) =>
  `_nomad-task-${alloc}-server-${service}-task-http`;

/** A well-formed token Consul never issued. */
export const UNKNOWN_TOKEN = '00000000-0000-4000-8000-000000000000';

/** A loopback address nothing listens on: a port the system just gave out and took back. */
export async function closedAddress(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `127.0.0.1:${port}`;
}

/** A job on the pair, the command's token, and the watch of its Consul service. */
export interface Fixture {
  target: E2eTarget;
  consul: ConsulPair;
  service: string;
  order: AllocListStub[];
  token: string;
}

export async function openFixture(id: string, spec: JobSpec): Promise<Fixture> {
  const consul = new ConsulPair();
  const service = `${id}-${consul.run}`;
  const target = await openE2e({ jobs: [consulJob(id, service, spec)] });
  const order = inOrder(await target.allocations(id));
  return { target, consul, service, order, token: await consul.token(readmeConsulPolicyHcl()) };
}

export async function closeFixture(fixture: Fixture | undefined): Promise<void> {
  await fixture?.target.close();
  await fixture?.consul.close();
}
