/**
 * One finding of `nomad-restart check`: what was proved on the real deployment, or what failed,
 * why, and what the operator does about it.
 */

/** A check that passed. */
export interface CheckPassed {
  readonly passed: true;
  /** What was proved, e.g. `the question was answered with states:SendTaskSuccess`. */
  readonly what: string;
}

/** A check that failed. */
export interface CheckFailed {
  readonly passed: false;
  readonly what: string;
  /** Why, in AWS's or Step Functions' own words where they gave any. */
  readonly why: string;
  /** What to change so that it passes. */
  readonly fix: string;
}

/** One finding. */
export type CheckResult = CheckPassed | CheckFailed;

/** A passed check. */
export const passed = (what: string): CheckPassed => ({ passed: true, what });

/** A failed check. */
export const failed = (what: string, why: string, fix: string): CheckFailed => ({
  passed: false,
  what,
  why,
  fix,
});
