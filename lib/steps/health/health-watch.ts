/**
 * The state of one "Await health" slice: what the allocation list and the checks endpoint said,
 * each allocation's verdict and `-min-healthy-time` count, the deadline and the 60 s lines.
 */

import { formatGoDuration } from '../../go/duration';
import type { NomadClient } from '../../nomad/client';
import type { QueryResult } from '../../nomad/query';
import type { AllocCheckStatuses, AllocListStub } from '../../nomad/types';
import {
  AllocationStepError,
  AllocationUnhealthyError,
  HealthDeadlineError,
} from '../../restart/allocation-errors';
import { type ConsulGateError, errorText } from '../../restart/errors';
import type { EmitProgress } from '../../restart/events';
import type { DeclaredConsulCheck } from '../../restart/health/consul-health';
import { allocationGroup, allocationRoles, type Health, judgeHealth } from '../../restart/health/health';
import { displayId } from '../../restart/ids';
import type { HealthGate } from '../../restart/options';
import { STILL_WAITING_INTERVAL_MS } from '../await/await-cursor';
import { AllocationVanishedError } from '../kit/errors';
import { failedOutcome } from '../kit/outcomes';
import type { Settled } from '../kit/watch-timing';
import type { ConsulChecksWatch } from './consul-checks-watch';
import { declaredConsulChecks } from './consul-declared';
import { checkPollMs, type HealthCursor, type WatchedAllocation } from './health-cursor';

/** A job allocations answer, or why there is none. */
export type Listed = Settled<QueryResult<AllocListStub[]>>;

/** What a watch reads with and reports to. */
export interface HealthWatchDeps {
  readonly emit: EmitProgress;
  /** Unix ms; the min-healthy and deadline clocks run on it. */
  readonly now: () => number;
  /** @default STILL_WAITING_INTERVAL_MS (Nomad's 60 s) */
  readonly stillWaitingIntervalMs?: number | undefined;
  /** The batch's Consul reads, when the plan's allocations declare Consul services. */
  readonly consul?: ConsulChecksWatch | undefined;
}

type Query = { namespace?: string; signal: AbortSignal };

/** Roles are kept per job version and group: every allocation of a batch usually shares one. */
const rolesKey = (stub: AllocListStub) => `${stub.JobVersion ?? ''}/${stub.TaskGroup}`;

/** One slice's watch of a batch's health (see await-health.ts). */
export class HealthWatch {
  public listed = false;
  public allocationsIndex: number;
  private watching: WatchedAllocation[];
  private readonly roles: Record<string, HealthCursor['roles'][string]>;
  private readonly consulChecks: Record<string, readonly DeclaredConsulCheck[]>;
  /** Per allocation: when a Consul `passing` too recent to count becomes one that counts. */
  private readonly consulFreshAt = new Map<string, number>();
  private readonly failed: Record<string, HealthCursor['failed'][string]>;
  private readonly stubs = new Map<string, AllocListStub>();
  private readonly checks = new Map<string, AllocCheckStatuses>();
  private readonly minHealthyMs: number;
  private readonly deadlineAt: number;
  private readonly pollMs: number;

  public constructor(
    private readonly client: NomadClient,
    private readonly start: HealthCursor,
    private readonly gate: HealthGate,
    private readonly verbose: boolean,
    private readonly deps: HealthWatchDeps,
  ) {
    this.watching = [...start.watching];
    this.roles = { ...start.roles };
    this.consulChecks = { ...start.consulChecks };
    this.failed = { ...start.failed };
    this.allocationsIndex = start.allocationsIndex;
    this.minHealthyMs = gate.minHealthyTimeNs / 1e6;
    this.deadlineAt = start.startedAt + gate.healthyDeadlineNs / 1e6;
    this.pollMs = checkPollMs(gate.minHealthyTimeNs);
  }

  public waiting(): boolean {
    return this.watching.length > 0;
  }

  /**
   * The next moment something is due: a checks read, the end of a `-min-healthy-time` count of an
   * allocation without checks, a `Still waiting` line, the deadline. Task changes wake the list query.
   */
  public nextDueAt(): number {
    let at = this.deadlineAt;
    for (const w of this.watching) {
      at = Math.min(at, w.nextStillWaitingAt);
      if (!this.tasksFine(w)) continue;
      if (!this.hasNoChecks(w)) at = Math.min(at, w.nextCheckReadAt);
      else if (w.passingSince !== undefined) at = Math.min(at, w.passingSince + this.minHealthyMs);
      at = Math.min(at, this.consulFreshAt.get(w.allocationId) ?? Number.POSITIVE_INFINITY);
    }
    return this.deps.consul === undefined ? at : Math.min(at, this.deps.consul.nextReadAt());
  }

  public onList(listed: Listed): void {
    if (!listed.ok) {
      for (const w of this.watching) this.fail(w, this.readError(w, listed.error));
      return;
    }
    this.listed = true;
    this.allocationsIndex = Math.max(listed.value.index, 1);
    for (const stub of listed.value.value) this.stubs.set(stub.ID, stub);
    for (const w of this.watching) {
      if (!listed.value.value.some((stub) => stub.ID === w.watchedId))
        this.fail(
          w,
          new AllocationVanishedError(
            displayId(w.watchedId, { verbose: this.verbose }),
            'it to become healthy',
          ),
        );
    }
  }

  /** Reads what is due (roles once, checks at most every poll interval), then judges every allocation. */
  public async look(query: Query): Promise<void> {
    const now = this.deps.now();
    await Promise.all(
      this.watching.map(async (w) => {
        const stub = this.stubs.get(w.watchedId);
        if (stub !== undefined && (this.needs(w) === 'roles' || this.needsConsulChecks(stub)))
          await this.readRoles(w, stub, query);
        if (this.tasksFine(w) && !this.hasNoChecks(w) && now >= w.nextCheckReadAt)
          await this.readChecks(w, now, query);
      }),
    );
    const consul = this.deps.consul;
    if (consul !== undefined && !consul.read()) await consul.readAll(query.signal);
    if (consul?.stopError !== undefined) {
      this.stopAll(consul.stopError);
      return;
    }
    const judgedAt = this.deps.now();
    for (const w of [...this.watching]) this.judge(w, judgedAt);
    this.tick(judgedAt);
  }

  public cursor(): HealthCursor {
    const { allocationsIndex, roles, watching, failed } = this;
    const consul = this.deps.consul;
    return {
      ...this.start,
      allocationsIndex,
      roles,
      watching,
      failed,
      ...(consul === undefined
        ? {}
        : { consulChecks: this.consulChecks, consulIndexes: consul.lastIndexes() }),
    };
  }

  /** The Consul checks its job version and group declare are not known yet. */
  private needsConsulChecks(stub: AllocListStub): boolean {
    return this.deps.consul !== undefined && this.consulChecks[rolesKey(stub)] === undefined;
  }

  private view(w: WatchedAllocation, withChecks: boolean) {
    const stub = this.stubs.get(w.watchedId);
    if (stub === undefined) return undefined;
    return {
      allocation: stub,
      roles: this.roles[rolesKey(stub)],
      restartedSinceMs: w.watchedId === w.allocationId ? this.start.restartedSinceMs : undefined,
      checks: withChecks ? this.checks.get(w.watchedId) : undefined,
    };
  }

  /** What judging its tasks asks for before the checks come in. */
  private needs(w: WatchedAllocation): 'roles' | 'checks' | undefined {
    const view = this.view(w, false);
    const health = view === undefined ? undefined : judgeHealth(view);
    return health?.kind === 'unhealthy' ? health.needs : undefined;
  }

  /** Its tasks are as they should be: only the checks are left to judge. */
  private tasksFine(w: WatchedAllocation): boolean {
    return this.needs(w) === 'checks';
  }

  /** Its checks were read in this slice and it has none: the endpoint is not asked again. */
  private hasNoChecks(w: WatchedAllocation): boolean {
    const checks = this.checks.get(w.watchedId);
    return checks !== undefined && Object.keys(checks).length === 0;
  }

  /** The lifecycle roles of the allocation's job version, from the allocation's own `Job`. */
  private async readRoles(w: WatchedAllocation, stub: AllocListStub, query: Query): Promise<void> {
    try {
      const allocation = (await this.client.allocations().info(w.watchedId, query)).value;
      this.roles[rolesKey(stub)] = allocationRoles(allocation);
      if (this.deps.consul !== undefined)
        this.consulChecks[rolesKey(stub)] = declaredConsulChecks(allocationGroup(allocation));
    } catch (error) {
      if (!query.signal.aborted) this.fail(w, this.readError(w, error));
    }
  }

  private async readChecks(w: WatchedAllocation, now: number, query: Query): Promise<void> {
    this.update(w, { nextCheckReadAt: now + this.pollMs });
    try {
      this.checks.set(w.watchedId, (await this.client.allocations().checks(w.watchedId, query)).value);
    } catch (error) {
      if (query.signal.aborted) return;
      // Unreadable now (a node out of reach, say): not healthy, and the deadline bounds the wait.
      this.checks.delete(w.watchedId);
      this.onHealth(
        w,
        { kind: 'unhealthy', reason: `its checks could not be read: ${errorText(error)}` },
        now,
      );
    }
  }

  private judge(w: WatchedAllocation, now: number): void {
    const view = this.view(w, true);
    if (view === undefined) return;
    const health = judgeHealth(view);
    // Tasks fine, checks unread (not due yet, or unreadable): nothing new to say.
    if (health.kind === 'unhealthy' && health.needs === 'checks') return;
    if (health.kind !== 'passing') {
      this.onHealth(w, health, now);
      return;
    }
    const consulHealth = this.judgeConsul(w, view.allocation, health.latestStartNs, now);
    if (consulHealth === undefined) return;
    this.onHealth(
      w,
      consulHealth.kind === 'passing'
        ? { ...health, checks: health.checks + consulHealth.checks }
        : consulHealth,
      now,
    );
  }

  /**
   * Its Consul checks, once its Nomad side passes; undefined when there is nothing to say yet (its
   * declared checks unread) or the run stops (an answer filtered by ACLs hides its checks).
   */
  private judgeConsul(
    w: WatchedAllocation,
    stub: Pick<AllocListStub, 'JobVersion' | 'TaskGroup'>,
    latestStartNs: number,
    now: number,
  ): { kind: 'passing'; checks: number } | { kind: 'unhealthy'; reason: string } | undefined {
    const consul = this.deps.consul;
    if (consul === undefined) return { kind: 'passing', checks: 0 };
    const declared = this.consulChecks[rolesKey(stub as AllocListStub)];
    if (declared === undefined) return undefined;
    const judged = consul.judge(w, declared, latestStartNs, now);
    if (consul.stopError !== undefined) {
      this.stopAll(consul.stopError);
      return undefined;
    }
    this.update(w, judged.memory);
    if (judged.freshAt === undefined) this.consulFreshAt.delete(w.allocationId);
    else this.consulFreshAt.set(w.allocationId, judged.freshAt);
    return judged.health;
  }

  /** Consul cannot be asked: every allocation still awaited fails, and the run stops before the next batch. */
  private stopAll(error: ConsulGateError): void {
    for (const w of [...this.watching]) this.fail(w, error, { unrecoverable: true });
  }

  private onHealth(w: WatchedAllocation, health: Health, now: number): void {
    const current = this.watching.find((x) => x.allocationId === w.allocationId) ?? w;
    if (health.kind === 'failed') {
      this.fail(
        current,
        new AllocationUnhealthyError({
          allocationId: current.watchedId,
          reason: health.reason,
          verbose: this.verbose,
        }),
      );
      return;
    }
    // A flap (or a task started again since the count began) starts the count over.
    const reset = (reason: string) => {
      if (current.passingSince !== undefined)
        this.deps.emit({ type: 'health-reset', time: now, allocationId: current.watchedId, reason });
    };
    if (health.kind === 'unhealthy') {
      reset(health.reason);
      this.update(current, { passingSince: undefined, passingStartNs: undefined, reason: health.reason });
      return;
    }
    let since = current.passingSince;
    if (since === undefined || current.passingStartNs !== health.latestStartNs) {
      reset('a task started again');
      since = now;
      this.update(current, {
        passingSince: now,
        passingStartNs: health.latestStartNs,
        reason: 'passing, for less than -min-healthy-time',
      });
    }
    if (now - since < this.minHealthyMs) return;
    if (health.checks === 0)
      this.deps.emit({ type: 'health-no-checks', time: now, allocationId: current.watchedId });
    this.deps.emit({
      type: 'allocation-healthy',
      time: now,
      allocationId: current.watchedId,
      checks: health.checks,
    });
    this.watching = this.watching.filter((x) => x.allocationId !== current.allocationId);
  }

  /** The deadline and the 60 s lines. */
  private tick(now: number): void {
    if (now >= this.deadlineAt) {
      const deadlineText = formatGoDuration(this.gate.healthyDeadlineNs);
      for (const w of [...this.watching])
        this.fail(
          w,
          new HealthDeadlineError({
            allocationId: w.watchedId,
            deadlineText,
            reason: w.reason,
            verbose: this.verbose,
          }),
        );
      return;
    }
    for (const w of [...this.watching]) {
      if (now < w.nextStillWaitingAt) continue;
      this.deps.emit({
        type: 'health-still-waiting',
        time: now,
        allocationId: w.watchedId,
        reason: w.reason,
      });
      const interval = this.deps.stillWaitingIntervalMs ?? STILL_WAITING_INTERVAL_MS;
      const missed = Math.floor((now - w.nextStillWaitingAt) / interval) + 1;
      this.update(w, { nextStillWaitingAt: w.nextStillWaitingAt + missed * interval });
    }
  }

  private update(
    w: WatchedAllocation,
    change: { [K in keyof WatchedAllocation]?: WatchedAllocation[K] | undefined },
  ): void {
    this.watching = this.watching.map((x) => {
      if (x.allocationId !== w.allocationId) return x;
      const next: Record<string, unknown> = { ...x, ...change };
      // A cleared field leaves the JSON cursor, as `exactOptionalPropertyTypes` wants it gone.
      for (const key of Object.keys(change)) if (next[key] === undefined) delete next[key];
      return next as unknown as WatchedAllocation;
    });
  }

  /** A read about the allocation failed: Nomad's watcher wording. */
  private readError(w: WatchedAllocation, cause: unknown): AllocationStepError {
    return new AllocationStepError({
      step: 'allocation',
      cause,
      allocationId: w.watchedId,
      verbose: this.verbose,
    });
  }

  private fail(w: WatchedAllocation, inner: unknown, options: { unrecoverable?: boolean } = {}): void {
    if (!this.watching.some((x) => x.allocationId === w.allocationId)) return;
    this.failed[w.allocationId] = failedOutcome({ id: w.allocationId, group: w.group }, inner, {
      verbose: this.verbose,
      ...options,
    });
    this.watching = this.watching.filter((x) => x.allocationId !== w.allocationId);
  }
}
