/**
 * Fixtures of the Consul gate's tests: a job whose group registers a `provider = "consul"` service
 * (Nomad's default) with an `http` check, optionally beside a `provider = "nomad"` one, and
 * readers of the simulated Consul's request log.
 */
import type { Job, Service, ServiceCheck } from '../../../../lib/nomad/types';
import type { RequestLogEntry } from '../../../../sim/index';
import { checkedJob } from './health-fixtures';

const SECOND = 1e9;

/** Options of {@link consulJob}. */
export interface ConsulJobOptions {
  /** The `http` check's interval in simulated seconds. @default 1 */
  readonly intervalS?: number;
  /** The `http` check's `on_update`. @default - Nomad's `require_healthy` */
  readonly onUpdate?: string;
  /** The `http` check's `initial_status`. @default - Consul's `critical` */
  readonly initialStatus?: string;
  /** More checks on the Consul service. */
  readonly extraChecks?: readonly ServiceCheck[];
  /** A `provider = "nomad"` service with its own `http` check beside it. @default false */
  readonly withNomadCheck?: boolean;
}

/** A service job of `count` allocations: task `server`, group Consul service `<id>-web`, check `http`. */
export function consulJob(id: string, count: number, options: ConsulJobOptions = {}): Job {
  const interval = (options.intervalS ?? 1) * SECOND;
  const consul: Service = {
    Name: `${id}-web`,
    PortLabel: 'http',
    Checks: [
      {
        Name: 'http',
        Type: 'http',
        Path: '/',
        Interval: interval,
        Timeout: SECOND,
        ...(options.onUpdate === undefined ? {} : { OnUpdate: options.onUpdate }),
        ...(options.initialStatus === undefined ? {} : { InitialStatus: options.initialStatus }),
      },
      ...(options.extraChecks ?? []),
    ],
  };
  const nomad: Service = {
    Name: `${id}-nomad`,
    Provider: 'nomad',
    PortLabel: 'http',
    Checks: [{ Name: 'nomad-http', Type: 'http', Path: '/', Interval: interval, Timeout: SECOND }],
  };
  // checkedJob's job, its group's Nomad service replaced by the Consul one (and a Nomad one beside).
  const job = checkedJob(id, count, { intervalS: options.intervalS ?? 1 });
  return {
    ...job,
    TaskGroups: (job.TaskGroups ?? []).map((group) => ({
      ...group,
      Services: options.withNomadCheck === true ? [consul, nomad] : [consul],
    })),
  };
}

/** The simulated Consul's reads of `GET /v1/health/checks/<service>`, in order. */
export function consulReads(log: readonly RequestLogEntry[], service: string): RequestLogEntry[] {
  return log.filter((r) => r.method === 'GET' && r.path === `/v1/health/checks/${service}`);
}
