/**
 * Consul's side of a batch's health wait (`-wait-healthy` on a job with Consul services): one read
 * per service (`GET /v1/health/checks/<service>`), shared by every allocation of the batch, kept
 * up to date by blocking queries (`?index=` from the last `X-Consul-Index`) rather than polls.
 *
 * Request cost: per batch and slice, one plain read per service to start from what is current,
 * then one blocking read per service each time Consul's answer changes or the hold (at most the
 * slice's remaining time, 5 minutes at most) runs out. It does not grow with the batch: a
 * service's answer holds every allocation's checks (bench/health-gate.ts measures it).
 */
import { ConsulAbortedError, ConsulError } from '../../consul/errors';
import { MAX_BLOCKING_HOLD_MS } from '../../nomad/query';
import { ConsulGateError, errorText } from '../../restart/errors';
import {
  type ConsulCheckState,
  type ConsulChecksReader,
  type DeclaredConsulCheck,
  judgeConsulChecks,
} from '../../restart/health/consul-health';
import { STALL_BACKOFF_MS } from '../kit/watch-timing';
import { consulServiceId } from './consul-declared';
import type { WatchedAllocation } from './health-cursor';

/** What an allocation's watch remembers of its Consul checks between looks (kept in the cursor). */
type ConsulMemory = Pick<WatchedAllocation, 'consulSeenNotHealthy' | 'consulStartSeen'>;

/**
 * Consul's errors are no health verdict (lib/consul/errors.ts): out of reach, the token refused,
 * or an answer that stayed an error after the client's retries stop the run. A read given up by
 * the slice's end is no error at all.
 */
const stopsTheRun = (error: unknown): boolean =>
  error instanceof ConsulGateError ||
  (error instanceof ConsulError && !(error instanceof ConsulAbortedError));

interface Answer {
  readonly checks: readonly ConsulCheckState[];
  readonly filteredByAcls: boolean;
}

/** One slice's reads of the batch's Consul services. */
export class ConsulChecksWatch {
  /** Set once Consul cannot be asked at all: the run stops. */
  public stopError: ConsulGateError | undefined;
  private readonly answers = new Map<string, Answer>();
  private readonly failures = new Map<string, string>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly notBefore = new Map<string, number>();
  private readonly indexes: Record<string, string>;

  public constructor(
    private readonly reader: ConsulChecksReader,
    public readonly services: readonly string[],
    indexes: Readonly<Record<string, string>>,
    private readonly now: () => number,
  ) {
    this.indexes = { ...indexes };
  }

  /** `X-Consul-Index` by service, for the cursor. */
  public lastIndexes(): Record<string, string> {
    return { ...this.indexes };
  }

  /** Whether every service has an answer (or a failure) in this slice. */
  public read(): boolean {
    return this.services.every((s) => this.answers.has(s) || this.failures.has(s));
  }

  /** Reads every service once, without blocking: what a slice judges first is current. */
  public async readAll(signal: AbortSignal): Promise<void> {
    await Promise.all(this.services.map((service) => this.readService(service, signal)));
  }

  /**
   * Starts a blocking read of each service that has none outstanding; resolves when one of them
   * answers (a change, or the hold ran out). Undefined when none can start yet.
   */
  public changed(signal: AbortSignal, holdMs: number): Promise<void> | undefined {
    const now = this.now();
    for (const service of this.services) {
      if (this.pending.has(service) || now < (this.notBefore.get(service) ?? 0)) continue;
      const wait = `${Math.max(1, Math.min(MAX_BLOCKING_HOLD_MS, Math.floor(holdMs)))}ms`;
      this.pending.set(
        service,
        this.readService(service, signal, wait).finally(() => this.pending.delete(service)),
      );
    }
    return this.pending.size === 0 ? undefined : Promise.race(this.pending.values());
  }

  /** When a service held back after an unmoved index may be read again. */
  public nextReadAt(): number {
    return Math.min(...this.services.map((s) => this.notBefore.get(s) ?? Number.POSITIVE_INFINITY));
  }

  /**
   * The checks of `services` as last read, or why they are unknown. `filtered`: a service whose
   * answer Consul filtered by ACLs (a check missing from it is hidden, not absent).
   */
  public checksOf(
    services: readonly string[],
  ):
    | { readonly checks: ConsulCheckState[]; readonly filtered: ReadonlySet<string> }
    | { readonly unknown: string } {
    const checks: ConsulCheckState[] = [];
    const filtered = new Set<string>();
    for (const service of new Set(services)) {
      const failure = this.failures.get(service);
      if (failure !== undefined) return { unknown: `Consul's checks could not be read: ${failure}` };
      const answer = this.answers.get(service);
      if (answer === undefined) return { unknown: "Consul's checks not read yet" };
      checks.push(...answer.checks);
      if (answer.filteredByAcls) filtered.add(service);
    }
    return { checks, filtered };
  }

  /**
   * One allocation's Consul checks now (see consul-health.ts), with the memory its watch keeps
   * for the next look and when a `passing` too recent to count would count. A check hidden by
   * ACLs sets {@link stopError}: the token cannot read the service.
   */
  public judge(
    w: ConsulMemory & { readonly watchedId: string },
    declared: readonly DeclaredConsulCheck[],
    latestStartNs: number,
    now: number,
  ): {
    health: { kind: 'passing'; checks: number } | { kind: 'unhealthy'; reason: string };
    memory: ConsulMemory;
    freshAt?: number;
  } {
    if (declared.length === 0) return { health: { kind: 'passing', checks: 0 }, memory: {} };
    const answers = this.checksOf(declared.map((c) => c.service));
    if ('unknown' in answers) return { health: { kind: 'unhealthy', reason: answers.unknown }, memory: {} };
    const hidden = declared.find(
      (c) =>
        answers.filtered.has(c.service) &&
        !answers.checks.some((s) => s.ServiceID === consulServiceId(w.watchedId, c) && s.Name === c.name),
    );
    if (hidden !== undefined) {
      this.stopError ??= ConsulGateError.filtered(hidden.service);
      return { health: { kind: 'unhealthy', reason: this.stopError.message }, memory: {} };
    }
    // A start not seen before (the restart's, or a task that started again since): what Consul
    // showed before it says nothing about the new process.
    const sameStart = w.consulStartSeen?.startNs === latestStartNs && w.consulStartSeen !== undefined;
    const startSeen =
      sameStart && w.consulStartSeen ? w.consulStartSeen : { startNs: latestStartNs, at: now };
    const verdict = judgeConsulChecks({
      serviceIdOf: (check) => consulServiceId(w.watchedId, check),
      declared,
      checks: answers.checks,
      tasksStartedMs: startSeen.at,
      now,
      seenNotHealthy: sameStart ? (w.consulSeenNotHealthy ?? []) : [],
    });
    const freshAt = Math.min(...declared.map((c) => startSeen.at + c.intervalMs).filter((at) => at > now));
    return {
      health: verdict.health,
      memory: { consulSeenNotHealthy: verdict.seenNotHealthy, consulStartSeen: startSeen },
      ...(Number.isFinite(freshAt) ? { freshAt } : {}),
    };
  }

  private async readService(service: string, signal: AbortSignal, wait?: string): Promise<void> {
    const sent = wait === undefined ? undefined : this.indexes[service];
    try {
      const answer = await this.reader.serviceChecks(service, {
        signal,
        ...(sent === undefined || wait === undefined ? {} : { index: sent, wait }),
      });
      if (signal.aborted) return;
      this.answers.set(service, { checks: answer.checks, filteredByAcls: answer.filteredByAcls });
      this.failures.delete(service);
      // An index that did not move: a server that does not block must not make us spin.
      if (sent !== undefined && answer.index === sent)
        this.notBefore.set(service, this.now() + STALL_BACKOFF_MS);
      this.indexes[service] = answer.index;
    } catch (error) {
      if (signal.aborted) return;
      if (stopsTheRun(error)) {
        this.stopError ??= error instanceof ConsulGateError ? error : new ConsulGateError(error);
        return;
      }
      // Anything else (an answer Consul's decoder refused, say) is not healthy for now; the
      // deadline bounds the wait.
      this.failures.set(service, errorText(error));
      this.notBefore.set(service, this.now() + STALL_BACKOFF_MS);
    }
  }
}

/**
 * Reads each of the plan's Consul services once, before the first batch: a Consul the gate cannot
 * ask (out of reach, the token refused, every check hidden by ACLs) stops the run with nothing
 * restarted, instead of failing the first batch after its restarts.
 */
export async function checkConsulBeforeFirstBatch(
  reader: ConsulChecksReader | undefined,
  services: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  if (services.length === 0) return;
  if (reader === undefined) throw new ConsulGateError('no Consul client is configured');
  await Promise.all(
    services.map(async (service) => {
      let answer: Awaited<ReturnType<ConsulChecksReader['serviceChecks']>>;
      try {
        answer = await reader.serviceChecks(service, { signal });
      } catch (error) {
        throw new ConsulGateError(error);
      }
      if (answer.filteredByAcls && answer.checks.length === 0) throw ConsulGateError.filtered(service);
    }),
  );
}
