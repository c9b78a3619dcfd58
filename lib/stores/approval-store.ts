/**
 * Pending questions. The ask step stores the question, the batch summary and the task token
 * under an opaque approval id; the CLI, the console helper or chat find it by execution, show
 * the question and answer it by id, so nobody copies raw task tokens around.
 */
import { randomBytes } from 'node:crypto';
import { StoreItemNotFoundError } from './errors';

/** One pending question. `taskToken` is a credential for the execution: never log it. */
export interface Approval {
  /** Opaque, unguessable id (what `nomad-restart approve <id>` takes). */
  readonly approvalId: string;
  /** ARN (or local id) of the execution that waits. */
  readonly executionId: string;
  readonly taskToken: string;
  /** `multiregion` or `proceed` (spec §2.8). */
  readonly kind: string;
  /** The question exactly as Nomad asks it, options included. */
  readonly prompt: string;
  /** Plain-text batch summary to show with the question. */
  readonly summary: string;
  readonly jobId: string;
  readonly namespace: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Unix seconds after which the item may be deleted (the task token has expired by then). */
  readonly expiresAt: number;
}

export interface ApprovalStore {
  /** Stores a pending question. Overwrites an item with the same id. */
  put(approval: Approval): Promise<void>;
  /** Reads one; throws `StoreItemNotFoundError` when unknown or already answered. */
  get(approvalId: string): Promise<Approval>;
  /** Pending questions of one execution, oldest first. */
  listByExecution(executionId: string): Promise<Approval[]>;
  /** Removes an answered (or abandoned) question. Deleting an unknown id is not an error. */
  delete(approvalId: string): Promise<void>;
}

/** A new opaque approval id: 128 random bits, URL-safe. */
export function newApprovalId(): string {
  return randomBytes(16).toString('base64url');
}

/** In-memory approvals for local runs and tests. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly items = new Map<string, Approval>();

  public async put(approval: Approval): Promise<void> {
    this.items.set(approval.approvalId, { ...approval });
  }

  public async get(approvalId: string): Promise<Approval> {
    const item = this.items.get(approvalId);
    if (item === undefined) throw new StoreItemNotFoundError(`No pending question with id "${approvalId}"`);
    return { ...item };
  }

  public async listByExecution(executionId: string): Promise<Approval[]> {
    return [...this.items.values()]
      .filter((a) => a.executionId === executionId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((a) => ({ ...a }));
  }

  public async delete(approvalId: string): Promise<void> {
    this.items.delete(approvalId);
  }
}
