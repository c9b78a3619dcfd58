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

/** Go's `syscall.Errno` texts for the file errors a path setting can meet. */
const GO_ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
};

/**
 * A file system error in Go's words (`*fs.PathError`: `open /ca.pem: no such file or
 * directory`), which is how Nomad reports a CA, certificate or key it cannot read; any other
 * error keeps its own message.
 */
export function fileErrorText(err: unknown, path: string): string {
  if (typeof err === 'object' && err !== null && 'code' in err && 'syscall' in err) {
    const { code, syscall } = err as { code: unknown; syscall: unknown };
    const text = typeof code === 'string' ? GO_ERRNO_TEXT[code] : undefined;
    if (text !== undefined && typeof syscall === 'string') {
      // Node reads a directory with readdir ("scandir"), Go opens it first.
      return `${syscall === 'scandir' ? 'open' : syscall} ${path}: ${text}`;
    }
  }
  return messageOf(err);
}
