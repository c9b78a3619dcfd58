/**
 * The one rule every error hierarchy of this package shares: an error's `name` is its class's
 * name. Step Functions `Retry`/`Catch` match on it (the `errorType` Lambda reports for a thrown
 * error), and so do our own retry policies and the command's messages. Bundles keep class names
 * (`keepNames` in lib/constructs/private/handler-bundle.ts and the command's bundle).
 */

/** Base of each hierarchy's base class: `name` is the class that was constructed (`new.target`). */
export class NamedError extends Error {
  // `{ cause }`, not `ErrorOptions`: the package's declarations carry this type, and a CDK app
  // whose tsconfig `lib` is older than ES2022 (earlier `cdk init` templates wrote ES2020) has none.
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}
