/**
 * Task tokens for `.waitForTaskToken` states run locally, minted once per attempt as Step Functions does.
 */
import { randomBytes } from 'node:crypto';

/**
 * Task tokens for `.waitForTaskToken` states.
 *
 * aws-local-stepfunctions has no callback tasks and resolves `$$.Task.Token` from the context
 * object it is given. `contextTask` is that object's `Task` entry: reading its `Token` mints a
 * fresh token, exactly where the ASL's `Parameters` put `$$.Task.Token`, once per attempt.
 * The engine then calls the state's local handler in the same synchronous step, so the handler
 * takes the token just minted before anything else can run.
 */
export class TaskTokens {
  private pending: string | undefined;

  /** The `Task` entry of the context object. */
  readonly contextTask: { readonly Token: string };

  constructor() {
    const mint = () => this.mint();
    this.contextTask = {
      get Token(): string {
        return mint();
      },
    };
  }

  /** A new opaque token, remembered for the next `take()`. */
  mint(): string {
    this.pending = randomBytes(48).toString('base64url');
    return this.pending;
  }

  /** The token minted for the state about to run (a fresh one if its ASL never read it). */
  take(): string {
    const token = this.pending ?? randomBytes(48).toString('base64url');
    this.pending = undefined;
    return token;
  }
}
