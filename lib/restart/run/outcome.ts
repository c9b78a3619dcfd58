/** How a run ends: what its summary, its record and its metrics say first. */
/** How a run ended. The execution's last state routes on it. */
export type RunOutcome =
  /** Every planned allocation restarted (or there was nothing to restart). */
  | 'succeeded'
  /** A "no" to a question ended the run; no errors. */
  | 'canceled'
  /**
   * Errors were collected (Nomad's `command/job_restart.go` `errorFormat`); the execution fails as
   * `RestartFailed`.
   */
  | 'failed'
  /**
   * An unrecoverable error stopped the run (Nomad's `command/job_restart.go` `isErrorRecoverable`);
   * the execution fails as `UnrecoverableError`.
   */
  | 'unrecoverable'
  /** The maintenance window ended: no batch started after it; the run stopped between batches. */
  | 'stopped-at-window-end'
  /** A scheduled run found the job locked by another run and did nothing. */
  | 'skipped-job-locked'
  // The three below are never an execution's output: the run ended outside "Finish restart",
  // and only its end notification (lib/workflow/run-end.ts) summarises it.
  /** The execution was stopped (`StopExecution`, the console's Stop execution). */
  | 'aborted'
  /** The execution ran past its time limit. */
  | 'timed-out'
  /** The execution ended in a Fail state before a summary was made (`InvalidInput`, `JobNotFound`, ...). */
  | 'error';
