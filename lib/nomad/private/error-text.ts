/**
 * The message of a caught value. Duck-typed rather than `instanceof Error`, because Node's
 * own errors (fs, net, tls) may come from another realm (a VM context, a test runner) where
 * `instanceof Error` is false.
 */
export function messageOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') {
    return err.message;
  }
  return String(err);
}
