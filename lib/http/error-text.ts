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

/** Go's texts for the dial errors a client meets most (`syscall.Errno` as `net.OpError` prints it). */
const GO_DIAL_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
};

/** The first error of an `AggregateError` (Node dialling IPv6 and IPv4 in turn), else `err`. */
function firstOf(err: unknown): unknown {
  if (typeof err === 'object' && err !== null && 'errors' in err && Array.isArray(err.errors))
    return err.errors[0] ?? err;
  return err;
}

/**
 * A failed dial in the words of Go's `net/http`, as Nomad's CLI prints it:
 * `Get "http://127.0.0.1:1/v1/jobs?prefix=web": dial tcp 127.0.0.1:1: connect: connection refused`
 * (`url.Error` quotes the URL after the method in Go's case; `net.OpError` names the address).
 * `undefined` for other errors, which keep Node's words.
 */
export function goDialErrorText(err: unknown, method: string, url: string): string | undefined {
  const first = firstOf(err) as { code?: unknown; address?: unknown; port?: unknown; hostname?: unknown };
  const op = `${method.charAt(0)}${method.slice(1).toLowerCase()} "${url}"`;
  if (first.code === 'ENOTFOUND' && typeof first.hostname === 'string')
    return `${op}: dial tcp: lookup ${first.hostname}: no such host`;
  const text = typeof first.code === 'string' ? GO_DIAL_TEXT[first.code] : undefined;
  if (text === undefined || typeof first.address !== 'string' || typeof first.port !== 'number')
    return undefined;
  const host = first.address.includes(':') ? `[${first.address}]` : first.address;
  return `${op}: dial tcp ${host}:${first.port}: connect: ${text}`;
}

/** OpenSSL verification codes Node reports on an untrusted or mismatched server certificate. */
const TLS_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
]);

/** The `code` of a Node error (`ECONNREFUSED`, `ERR_TLS_CERT_ALTNAME_INVALID`, ...), if it has one. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') {
    return err.code;
  }
  return undefined;
}

/** Whether a Node error code is a TLS handshake failure (a certificate refused either way). */
export function isTlsErrorCode(code: string | undefined): boolean {
  return (
    code !== undefined && (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))
  );
}
