/**
 * Pending questions. The ask step stores the question, the batch summary and the task token
 * under an opaque approval id; the CLI, the console helper or chat find it by execution, show
 * the question and answer it by id, so nobody copies raw task tokens around. Each question gets
 * at most one decision (the first valid answer, or its timeout), recorded on the item itself.
 */
import { randomBytes } from 'node:crypto';
import { StoreItemNotFoundError } from './errors';

/**
 * Where an answer came from. `timeout`: nobody answered in time, Nomad's default applied;
 * `run-ended`: the run ended (aborted, failed, timed out) while the question was open, which
 * closed it.
 */
export type DecisionVia = 'slack' | 'webhook' | 'terminal' | 'timeout' | 'run-ended';

/** The one decision a question gets: who answered what, when, and what became of it. */
export interface ApprovalDecision {
  /** Random id of this decision: only its maker may record its outcome or take it back. */
  readonly decisionId: string;
  /**
   * The reply as the workflow reads it (`yes`, `no`, a Go duration); the default for a timeout;
   * empty when the run ended first.
   */
  readonly answer: string;
  /** Who answered, for the record (a chat user, a webhook key id, `terminal`, `nobody`). */
  readonly answeredBy: string;
  readonly via: DecisionVia;
  /** Unix seconds. */
  readonly decidedAt: number;
  /**
   * `delivered`: the execution took it; `run-finished`: the run had ended (or the question had
   * timed out) before it arrived, so it changed nothing. Absent while being delivered.
   */
  readonly outcome?: 'delivered' | 'run-finished';
}

/** Which batch just ran, for the people asked (its errors are in `summary`). */
export interface ApprovalBatch {
  /** 1-based number of the batch that just ran. */
  readonly number: number;
  /** Batches in the plan. */
  readonly count: number;
  /** Allocations in that batch. */
  readonly size: number;
}

/** A chat message that shows the question, so it can be updated in place (Slack: channel and ts). */
export interface ApprovalMessage {
  readonly channel: string;
  readonly ts: string;
  /** What the message shows now: `asked`, or `<decisionId>/<outcome>` once updated with the decision. */
  readonly shows: string;
}

/** One question. `taskToken` is a credential for the execution: never log or show it. */
export interface Approval {
  /** Opaque, unguessable id (what `nomad-restart approve <id>` takes). */
  readonly approvalId: string;
  /** ARN (or local id) of the execution that waits. */
  readonly executionId: string;
  /**
   * The run asking (its first execution's ARN): a run-control request finds the run's pause
   * question by it (lib/approvals/run-control.ts). Absent in older items.
   */
  readonly runId?: string;
  readonly taskToken: string;
  /**
   * `multiregion` or `proceed` (Nomad's `command/job_restart.go` `shouldRestartMultiregion`,
   * `shouldProceed`).
   */
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
  /** Unix seconds when the question times out (Nomad's default answer applies); absent in older items. */
  readonly timesOutAt?: number;
  /** ARN of the state machine, while the question is pending (what `listPending` finds it by). */
  readonly stateMachineArn?: string;
  /** The run's `-region`, when it named one. */
  readonly region?: string;
  /** Who or what started the run, as its input says. */
  readonly startedBy?: string;
  /** The batch just run; absent for the multi-region question (asked before any batch). */
  readonly batch?: ApprovalBatch;
  /** Allocations restarted and failed so far in the run. */
  readonly totals?: { readonly restarted: number; readonly failed: number };
  /** Set once, by the first valid answer or the timeout. */
  readonly decision?: ApprovalDecision;
  /** Chat messages showing the question, by channel name (`slack`). */
  readonly messages?: Readonly<Record<string, ApprovalMessage>>;
  /**
   * Where in its execution the question was asked (`<kind>:<batch>`): a retried "Ask question"
   * finds its first attempt's question by it instead of asking again. Absent in older items.
   */
  readonly askedAt?: string;
}

/** A pending question as listed: everything but the task token. */
export type PendingApproval = Omit<Approval, 'taskToken' | 'decision' | 'messages'>;

/** The result of {@link ApprovalStore.decide}: this decision won, or the one that did. */
export type DecideResult =
  | { readonly won: true; readonly approval: Approval }
  | { readonly won: false; readonly decision: ApprovalDecision };

/** Which pending questions to list: those of one execution, or of every execution of a state machine. */
/** Which pending questions to list: those of one state machine (one execution's: `listByExecution`). */
export type PendingFilter = { readonly stateMachineArn: string };

export interface ApprovalStore {
  /** Stores a pending question. Overwrites an item with the same id. */
  put(approval: Approval): Promise<void>;
  /** Reads one, decided or not; throws `StoreItemNotFoundError` when unknown. */
  get(approvalId: string): Promise<Approval>;
  /** Questions of one execution (decided ones included), oldest first. */
  listByExecution(executionId: string): Promise<Approval[]>;
  /** Undecided questions of one state machine, oldest first, without their task tokens. */
  listPending(filter: PendingFilter): Promise<PendingApproval[]>;
  /**
   * Every undecided question in the store, oldest first, without their task tokens (on DynamoDB a
   * scan of the sparse pending index, which holds nothing else). A method of its own, so that code
   * that only ever lists one state machine's questions (the approval endpoint) never reaches the
   * scan its role is not granted.
   */
  listAllPending(): Promise<PendingApproval[]>;
  /**
   * Records `decision` unless the question already has one (a conditional write: of racing
   * answers exactly one wins). Throws `StoreItemNotFoundError` when the id is unknown.
   */
  decide(approvalId: string, decision: ApprovalDecision): Promise<DecideResult>;
  /** Records what became of this decision; a no-op when `decisionId` is not the recorded one. */
  settleDecision(
    approvalId: string,
    decisionId: string,
    outcome: 'delivered' | 'run-finished',
  ): Promise<void>;
  /**
   * Takes back this decision (it could not be delivered for a transient reason), so the question
   * is open again; a no-op when `decisionId` is not the recorded one.
   */
  withdrawDecision(approvalId: string, decisionId: string): Promise<void>;
  /**
   * Points the question at `taskToken`, the token of a retried "Ask question" the execution now
   * waits on, and opens it again: a decision recorded meanwhile went to the previous attempt's
   * token, which no longer completes anything, so it is dropped and the question must be
   * answered again. Throws `StoreItemNotFoundError` when the id is unknown.
   */
  reask(approvalId: string, taskToken: string): Promise<void>;
  /** Remembers the chat message that shows the question. */
  recordMessage(approvalId: string, channel: string, message: ApprovalMessage): Promise<void>;
  /** Removes an answered (or abandoned) question. Deleting an unknown id is not an error. */
  delete(approvalId: string): Promise<void>;
}

/**
 * A new opaque approval id: 128 random bits, URL-safe, never starting with `-` (an operator types
 * it after `nomad-restart approve`, where a leading `-` reads as a flag: 1 id in 64 did).
 */
export function newApprovalId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Whether `text` has the shape of an approval id (22 URL-safe characters), before any lookup. */
export function isApprovalId(text: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(text);
}

/** The state machine an execution ARN belongs to (`...:execution:<machine>:<name>`), or `undefined`. */
export function stateMachineArnOf(executionArn: string): string | undefined {
  const match = /^(arn:[^:]+:states:[^:]*:[^:]*):execution:([^:]+):[^:]+$/.exec(executionArn);
  return match === null ? undefined : `${match[1]}:stateMachine:${match[2]}`;
}

/** The listed form of a question: no task token, no decision. */
export function toPending(approval: Approval): PendingApproval {
  const { taskToken: _token, decision: _decision, messages: _messages, ...pending } = approval;
  return pending;
}

const matches = (filter: PendingFilter | undefined, a: Approval) =>
  filter === undefined || a.stateMachineArn === filter.stateMachineArn;

/** A change to a stored question, as the table's stream reports it (keys only). */
export type ApprovalChange = {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  readonly approvalId: string;
};

/** In-memory approvals for local runs and tests. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly items = new Map<string, Approval>();
  private readonly listeners = new Set<(change: ApprovalChange) => void>();

  /**
   * Calls `listener` after each change, like the DynamoDB table's stream (the notifier's trigger
   * on AWS). Returns the unsubscribe function.
   */
  public subscribe(listener: (change: ApprovalChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  public async put(approval: Approval): Promise<void> {
    const existed = this.items.has(approval.approvalId);
    this.items.set(approval.approvalId, structuredClone(approval));
    this.changed(existed ? 'MODIFY' : 'INSERT', approval.approvalId);
  }

  public async get(approvalId: string): Promise<Approval> {
    const item = this.items.get(approvalId);
    if (item === undefined) throw new StoreItemNotFoundError(`No question with id "${approvalId}"`);
    return structuredClone(item);
  }

  public async listByExecution(executionId: string): Promise<Approval[]> {
    return [...this.items.values()]
      .filter((a) => a.executionId === executionId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((a) => structuredClone(a));
  }

  public listPending(filter: PendingFilter): Promise<PendingApproval[]> {
    return this.pending(filter);
  }

  public listAllPending(): Promise<PendingApproval[]> {
    return this.pending(undefined);
  }

  private async pending(filter: PendingFilter | undefined): Promise<PendingApproval[]> {
    return [...this.items.values()]
      .filter((a) => a.decision === undefined && matches(filter, a))
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((a) => toPending(structuredClone(a)));
  }

  public async decide(approvalId: string, decision: ApprovalDecision): Promise<DecideResult> {
    const item = await this.get(approvalId);
    if (item.decision !== undefined) return { won: false, decision: item.decision };
    const decided = { ...item, decision: { ...decision } };
    this.items.set(approvalId, decided);
    this.changed('MODIFY', approvalId);
    return { won: true, approval: structuredClone(decided) };
  }

  public async settleDecision(
    approvalId: string,
    decisionId: string,
    outcome: 'delivered' | 'run-finished',
  ): Promise<void> {
    const item = this.items.get(approvalId);
    if (item?.decision?.decisionId !== decisionId) return;
    this.items.set(approvalId, { ...item, decision: { ...item.decision, outcome } });
    this.changed('MODIFY', approvalId);
  }

  public async withdrawDecision(approvalId: string, decisionId: string): Promise<void> {
    const item = this.items.get(approvalId);
    if (item?.decision?.decisionId !== decisionId) return;
    const { decision: _taken, ...open } = item;
    this.items.set(approvalId, open);
    this.changed('MODIFY', approvalId);
  }

  public async reask(approvalId: string, taskToken: string): Promise<void> {
    const { decision: _dropped, ...item } = await this.get(approvalId);
    this.items.set(approvalId, { ...item, taskToken });
    this.changed('MODIFY', approvalId);
  }

  public async recordMessage(approvalId: string, channel: string, message: ApprovalMessage): Promise<void> {
    const item = await this.get(approvalId);
    this.items.set(approvalId, { ...item, messages: { ...item.messages, [channel]: { ...message } } });
    this.changed('MODIFY', approvalId);
  }

  public async delete(approvalId: string): Promise<void> {
    if (this.items.delete(approvalId)) this.changed('REMOVE', approvalId);
  }

  private changed(eventName: ApprovalChange['eventName'], approvalId: string): void {
    for (const listener of this.listeners) listener({ eventName, approvalId });
  }
}
