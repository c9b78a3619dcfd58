/**
 * Variables endpoints of the Nomad client (`client.variables()`): reading, listing and a checked
 * delete of a variable, and the lock API of Nomad ≥ 1.7 (`PUT /v1/var/:path?lock-acquire|
 * lock-renew|lock-release`), as Nomad's `api/variables.go` and `api/locks.go` call it. A 409 on a
 * lock operation means the lock is someone else's: Nomad's client turns it into `ErrLockConflict`,
 * this one into {@link VariableLockConflictError}.
 */
import { UnexpectedResponseError } from './errors';
import {
  array,
  type DecodeContext,
  type JsonObject,
  object,
  optNumbers,
  optObject,
  optStrings,
  reqString,
} from './private/decode';
import type { Requester } from './private/requester';
import type { QueryOptions, WriteOptions } from './query';

/** A variable's lock (`api.VariableLock`): durations as Go strings (`"30s"`). */
export interface VariableLock {
  /**
   * The holder's key to renew and release. Nomad makes one at acquire unless the request names one;
   * with ACLs on it shows it only to the acquire's caller and to management tokens.
   */
  ID?: string;
  TTL?: string;
  LockDelay?: string;
}

/** A variable (`api.Variable`): its items are strings, its lock present while held. */
export interface Variable {
  Namespace?: string;
  Path: string;
  Items?: Record<string, string>;
  Lock?: VariableLock;
  CreateIndex?: number;
  ModifyIndex?: number;
  /** Unix nanoseconds (a listing's metadata carries them too): when it was written first and last. */
  CreateTime?: number;
  ModifyTime?: number;
}

/** The lock is another holder's (HTTP 409): acquire on a held lock, renew or release with a wrong ID. */
export class VariableLockConflictError extends UnexpectedResponseError {
  public constructor(cause: UnexpectedResponseError) {
    super(cause.statusCode, cause.body, { cause });
  }
}

function decodeVariable(ctx: DecodeContext, value: unknown): Variable {
  const o: JsonObject = object(ctx, value, '');
  reqString(ctx, o, 'Path', '');
  optStrings(ctx, o, '', 'Namespace');
  optNumbers(ctx, o, '', 'CreateIndex', 'ModifyIndex', 'CreateTime', 'ModifyTime');
  optObject(ctx, o, 'Items', '', (c, items, at) => {
    for (const key of Object.keys(items)) reqString(c, items, key, at);
  });
  optObject(ctx, o, 'Lock', '', (c, lock, at) => optStrings(c, lock, at, 'ID', 'TTL', 'LockDelay'));
  return o as unknown as Variable;
}

const conflictOr = (err: unknown): unknown =>
  err instanceof UnexpectedResponseError && err.statusCode === 409 ? new VariableLockConflictError(err) : err;

/** Variables endpoints, reached as `client.variables()`. */
export class Variables {
  /** @internal built by `NomadClient`. */
  public constructor(private readonly http: Requester) {}

  /** `GET /v1/var/:path`; `undefined` when there is no such variable (404). */
  public async read(path: string, q?: QueryOptions): Promise<Variable | undefined> {
    try {
      return (await this.http.query(`/v1/var/${path}`, {}, q, decodeVariable)).value;
    } catch (err) {
      if (err instanceof UnexpectedResponseError && err.statusCode === 404) return undefined;
      throw err;
    }
  }

  /**
   * `GET /v1/vars?prefix=`: the variables under `prefix`, without their items (metadata only;
   * `namespace: '*'` lists every namespace the token may read).
   */
  public async list(prefix: string, q?: QueryOptions): Promise<Variable[]> {
    const decode = (ctx: DecodeContext, value: unknown): Variable[] =>
      array(ctx, value, '').map((entry) => decodeVariable(ctx, entry));
    return (await this.http.query('/v1/vars', { prefix }, q, decode)).value;
  }

  /**
   * `PUT /v1/var/:path` (`nomad var put`): writes `items`, replacing the variable's, and answers
   * the variable as written (its `ModifyIndex` for a later {@link checkedDelete}). Nomad refuses a
   * write to a variable locked by someone else (409, {@link VariableLockConflictError}).
   */
  public write(path: string, items: Record<string, string>, w?: WriteOptions): Promise<Variable> {
    return this.put(undefined, { Path: path, Items: items }, w);
  }

  /**
   * `PUT /v1/var/:path?lock-acquire`: writes `items` (the whole variable: Nomad overwrites it) and
   * locks it for `lock.TTL`, under `lock.ID` when given (the holder of that ID may acquire again);
   * the answer carries the lock's `ID`.
   * @throws VariableLockConflictError when the variable is locked by another holder.
   */
  public acquireLock(
    path: string,
    items: Record<string, string>,
    lock: VariableLock,
    w?: WriteOptions,
  ): Promise<Variable> {
    return this.put('lock-acquire', { Path: path, Items: items, Lock: lock }, w);
  }

  /**
   * `PUT /v1/var/:path?lock-renew`: starts the lock's TTL again.
   * @throws VariableLockConflictError when `lockId` does not hold it (any more).
   */
  public async renewLock(path: string, lockId: string, w?: WriteOptions): Promise<void> {
    try {
      await this.http.writeIgnoringBody(
        `/v1/var/${path}`,
        { 'lock-renew': '' },
        { Path: path, Lock: { ID: lockId } },
        w,
      );
    } catch (err) {
      throw conflictOr(err);
    }
  }

  /**
   * `PUT /v1/var/:path?lock-release`: frees the lock at once. The variable stays, items and all;
   * the answer is its metadata with the `ModifyIndex` the release wrote (for {@link checkedDelete}).
   * @throws VariableLockConflictError when `lockId` does not hold it.
   */
  public releaseLock(path: string, lockId: string, w?: WriteOptions): Promise<Variable> {
    return this.put('lock-release', { Path: path, Lock: { ID: lockId } }, w);
  }

  /**
   * `PUT /v1/var/:path?cas=<checkIndex>` (Nomad's `CheckedUpsert`): writes `items` only if the
   * variable's `ModifyIndex` is still `checkIndex`, and answers the variable as written (its new
   * `ModifyIndex`, for the next checked write). Resolves `undefined` when Nomad answers 409 instead
   * (its `ErrCASConflict`: someone wrote meanwhile). Needs the `write` variables capability.
   */
  public async checkedWrite(
    path: string,
    items: Record<string, string>,
    checkIndex: number,
    w?: WriteOptions,
  ): Promise<Variable | undefined> {
    try {
      return (
        await this.http.write(
          `/v1/var/${path}`,
          { cas: String(checkIndex) },
          { Path: path, Items: items },
          w,
          decodeVariable,
        )
      ).value;
    } catch (err) {
      if (err instanceof UnexpectedResponseError && err.statusCode === 409) return undefined;
      throw err;
    }
  }

  /**
   * `DELETE /v1/var/:path?cas=<checkIndex>` (Nomad's `CheckedDelete`): deletes the variable only if
   * its `ModifyIndex` is still `checkIndex` and no lock is on it. Resolves `false` when Nomad
   * answers 409 instead (its `ErrCASConflict`: the variable changed, is locked, or is gone).
   * Deleting needs the `destroy` variables capability; a 403 throws.
   */
  public async checkedDelete(path: string, checkIndex: number, w?: WriteOptions): Promise<boolean> {
    try {
      await this.http.delete(`/v1/var/${path}`, { cas: String(checkIndex) }, w);
      return true;
    } catch (err) {
      if (err instanceof UnexpectedResponseError && err.statusCode === 409) return false;
      throw err;
    }
  }

  /** A `PUT` of `body`, the lock operation `operation` when given (else a plain write). */
  private async put(
    operation: string | undefined,
    body: Variable,
    w: WriteOptions | undefined,
  ): Promise<Variable> {
    const query = operation === undefined ? {} : { [operation]: '' };
    try {
      return (await this.http.write(`/v1/var/${body.Path}`, query, body, w, decodeVariable)).value;
    } catch (err) {
      throw conflictOr(err);
    }
  }
}
