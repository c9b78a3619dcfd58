/**
 * What the deployment check's read of one job found (`nomad-restart check -job`): the plan
 * function reads it where the Nomad-calling functions run (lib/steps/plan/deployment-check-reach.ts)
 * and `nomad-restart check` prints it. A Nomad or Consul error is the report's, not the step's.
 */
/** What went wrong, as the client named it. */
export interface ReachError {
  /** The error's class name, e.g. `NomadConnectionError`, `UnexpectedResponseError`. */
  readonly name: string;
  readonly message: string;
  /** The HTTP status the server answered with, when it answered. */
  readonly statusCode?: number;
}

/** What the function's Nomad said about the job. */
export type NomadReach =
  | {
      readonly reached: true;
      readonly job: string;
      readonly namespace: string;
      readonly type: string;
      readonly status: string;
      readonly allocations: number;
    }
  | { readonly reached: false; readonly error: ReachError };

/** What the function's Consul said, when the job declares Consul services. */
export type ConsulReach =
  | { readonly reached: true; readonly service: string; readonly checks: number }
  | { readonly reached: false; readonly service: string; readonly error: ReachError };

/** The report the check execution carries to `nomad-restart check` (its `reached` field). */
export interface ReachReport {
  /** The address the function called (`NOMAD_ADDR`): not a secret, and the first thing to check. */
  readonly nomadAddress: string;
  readonly nomad: NomadReach;
  /** Absent when Nomad was not reached or the job declares no Consul service. */
  readonly consul?: ConsulReach;
}
