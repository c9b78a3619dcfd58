/**
 * The message of a caught value. Duck-typed rather than `instanceof Error`, because Node's
 * own errors (fs, net, tls) may come from another realm (a VM context, a test runner) where
 * `instanceof Error` is false. An `AggregateError` (Node trying IPv6 and IPv4 in turn) has an
 * empty message of its own, so its inner messages are joined instead.
 */
export function messageOf(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const message = 'message' in err && typeof err.message === 'string' ? err.message : '';
  if (message === '' && 'errors' in err && Array.isArray(err.errors) && err.errors.length > 0) {
    return err.errors.map(messageOf).join('; ');
  }
  return message === '' ? String(err) : message;
}
