/**
 * Fixtures of the health gate's tests: a job whose tasks serve HTTP behind a `provider = "nomad"`
 * service with an `http` check (the traced shape), and readers of what its checks did.
 */
import type { Job, TaskGroup } from '../../../../lib/nomad/types';
import type { SimCheckRun, SimControl } from '../../../../sim/index';
import { task } from '../../helpers/harness';

const SECOND = 1e9;

/** Options of {@link checkedJob}. */
export interface CheckedJobOptions {
  /** The check's interval in simulated seconds. @default 2 */
  readonly intervalS?: number;
  readonly type?: string;
  /** The group's restart policy. @default one attempt, 3 s delay, mode fail (the traced crash) */
  readonly restartPolicy?: TaskGroup['RestartPolicy'];
}

/** A service job of `count` allocations: task `server` and group service `web` with check `http`. */
export function checkedJob(id: string, count: number, options: CheckedJobOptions = {}): Job {
  return {
    ID: id,
    Type: options.type ?? 'service',
    Region: 'global',
    Datacenters: ['dc1'],
    Priority: 50,
    TaskGroups: [
      {
        Name: 'web',
        Count: count,
        Tasks: [task('server')],
        Services: [
          {
            Name: `${id}-web`,
            Provider: 'nomad',
            PortLabel: 'http',
            Checks: [
              {
                Name: 'http',
                Type: 'http',
                Path: '/',
                Interval: (options.intervalS ?? 2) * SECOND,
                Timeout: SECOND,
              },
            ],
          },
        ],
        RestartPolicy: options.restartPolicy ?? {
          Attempts: 1,
          Delay: 3 * SECOND,
          Interval: 1800 * SECOND,
          Mode: 'fail',
        },
      },
    ],
  };
}

/** The runs of an allocation's `http` check. */
export function httpRuns(control: SimControl, allocationId: string): SimCheckRun[] {
  return control.state().checkRuns(allocationId)['http'] ?? [];
}

/**
 * Simulated ms of the first run of the allocation's `http` check that passed after `startedMs`
 * (simulated Unix ms of a task start), in a later second as the gate requires.
 */
export function firstPassAfter(
  control: SimControl,
  allocationId: string,
  startedMs: number,
): number | undefined {
  return httpRuns(control, allocationId).find(
    (run) => run.result.Status === 'success' && run.result.Timestamp > Math.floor(startedMs / 1000),
  )?.time;
}
