/**
 * `FleetOptions`: the validated options of a fleet run, shared by the command (`nomad-restart
 * fleet`), the console input and schedules. Plain JSON.
 */
import type { RestartOptions } from '../restart/options';

/** The order jobs restart in: by namespace then job ID, or by Nomad priority (highest last). */
export type FleetOrder = 'id' | 'priority';

/** The default `-order`: stable and documented, namespace then job ID. */
export const DEFAULT_FLEET_ORDER: FleetOrder = 'id';
/** The default `-max-jobs`: one job at a time. */
export const DEFAULT_MAX_JOBS = 1;
/** The default `-max-failed-jobs`: the first failed job stops the fleet from starting more. */
export const DEFAULT_MAX_FAILED_JOBS = 0;

/** The `namespace` value that selects every namespace the token may list. */
export const ALL_NAMESPACES = '*';

/**
 * Which jobs, and which of their allocations, a fleet restarts. Every field set narrows; at least
 * one is set (a bare fleet never means "restart everything").
 */
export interface FleetSelection {
  /** One namespace, or {@link ALL_NAMESPACES}. Absent: the token's default namespace. */
  readonly namespace?: string;
  /** Nomad's filter expression, evaluated by Nomad on each job (`GET /v1/jobs?filter=`). */
  readonly filter?: string;
  /** Node IDs or ID prefixes, as typed: resolved to full IDs by the plan. */
  readonly nodes?: readonly string[];
  readonly nodePool?: string;
  readonly datacenters?: readonly string[];
  /**
   * `-uses-variable`: only jobs that read one of these Nomad variables (a trailing `*`: any under
   * the prefix), from their specification (`lib/fleet/consumers.ts`).
   */
  readonly usesVariables?: readonly string[];
  /** `-uses-secret`: only jobs whose templates read one of these Vault secrets (trailing `*` likewise). */
  readonly usesSecrets?: readonly string[];
}

/** The restart options every job of the fleet shares: a one-job run's, minus what names one job. */
export type FleetJobOptions = Omit<
  RestartOptions,
  'job' | 'namespace' | 'groups' | 'tasks' | 'fleet' | 'scope'
>;

/** Validated options of a fleet run. */
export interface FleetOptions {
  readonly selection: FleetSelection;
  readonly order: FleetOrder;
  /** `-max-jobs`: jobs restarting at the same moment (≥ 1). */
  readonly maxJobs: number;
  /** `-max-failed-jobs`: once more jobs than this failed, no further job starts (≥ 0). */
  readonly maxFailedJobs: number;
  /**
   * `-stale` (needs `usesVariables`): each job restarts only the allocations that started before
   * the newest change of the variables it reads that `usesVariables` selects.
   */
  readonly stale: boolean;
  readonly jobOptions: FleetJobOptions;
}
