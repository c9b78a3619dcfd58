/**
 * Task tokens completed from outside the run, as `SendTaskSuccess` / `SendTaskFailure` complete
 * them on AWS: the local engine's question states wait here instead of at the terminal when a
 * run is given one (tests drive chat approvals end to end through it, with the Step Functions
 * client faked to call these methods). A token no longer waited on (answered, timed out, run
 * ended) is refused with `TaskTimedOut`, as Step Functions refuses it.
 */

/** What Step Functions answers for a token whose task is no longer open. */
export class TaskTokenClosedError extends Error {
  public constructor() {
    super('Task Timed Out: the task token is no longer valid');
    this.name = 'TaskTimedOut';
  }
}

interface Waiter {
  resolve(output: unknown): void;
  reject(error: Error): void;
}

/** The open task tokens of local runs. */
export class LocalTaskTokenCallbacks {
  private readonly waiting = new Map<string, Waiter>();

  /** Waits until `taskToken` is completed; gives up (and forgets it) when `signal` aborts. */
  public wait(taskToken: string, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const forget = () => {
        this.waiting.delete(taskToken);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) return forget();
      signal.addEventListener('abort', forget, { once: true });
      const done = () => signal.removeEventListener('abort', forget);
      this.waiting.set(taskToken, {
        resolve: (output) => {
          done();
          resolve(output);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
    });
  }

  /** `SendTaskSuccess`: `output` is the JSON text the task's result becomes. */
  public sendTaskSuccess(taskToken: string, output: string): void {
    this.take(taskToken).resolve(JSON.parse(output) as unknown);
  }

  /** `SendTaskFailure`: the task fails with `error` (what Catch matches) and `cause`. */
  public sendTaskFailure(taskToken: string, error = 'States.TaskFailed', cause = ''): void {
    this.take(taskToken).reject(Object.assign(new Error(cause), { name: error }));
  }

  /** How many tasks wait now. */
  public get pending(): number {
    return this.waiting.size;
  }

  private take(taskToken: string): Waiter {
    const waiter = this.waiting.get(taskToken);
    if (waiter === undefined) throw new TaskTokenClosedError();
    this.waiting.delete(taskToken);
    return waiter;
  }
}
