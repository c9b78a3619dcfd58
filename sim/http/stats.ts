/**
 * Request counters keyed by route pattern, per endpoint family and per wall-clock second, and
 * the request log (tokens never recorded).
 */
import type { RequestLogEntry, RequestRates } from '../types';

/** The log keeps the most recent entries only, so a long demo cannot grow without bound. */
export const MAX_LOG_ENTRIES = 100_000;

/** Seconds of per-second counts kept, so a long demo cannot grow them without bound. */
const MAX_SECONDS = 3600;

/**
 * The family of a counter key: its first path segment (`GET /v1/job/:id/allocations` → `job`,
 * `PUT /v1/client/allocation/:id/restart` → `client`), or `(unmatched)`.
 */
export function familyOf(key: string): string {
  return /^\S+ \/v1\/([^/]+)/.exec(key)?.[1] ?? '(unmatched)';
}

export class RequestStats {
  private counts = new Map<string, number>();
  private families = new Map<string, number>();
  private perSecond = new Map<number, number>();
  private log: RequestLogEntry[] = [];

  /**
   * @param now real time in ms, for the per-second counts (a wire rate, not simulated time)
   * @param logLimit entries the log keeps (the most recent)
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly logLimit = MAX_LOG_ENTRIES,
  ) {}

  record(key: string, entry: RequestLogEntry, blocking: boolean): void {
    this.bump(key);
    const family = familyOf(key);
    this.families.set(family, (this.families.get(family) ?? 0) + 1);
    const second = Math.floor(this.now() / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    if (this.perSecond.size > MAX_SECONDS)
      this.perSecond.delete(this.perSecond.keys().next().value ?? second);
    this.bump('total');
    if (blocking) this.bump('total:blocking');
    if (entry.status !== 200) this.bump('total:errors');
    this.log.push(entry);
    // Trimmed a tenth at a time: dropping one entry per request shifted the whole log each time,
    // which a 200,000-allocation fleet's quarter-million requests felt.
    if (this.log.length > this.logLimit + Math.ceil(this.logLimit / 10))
      this.log.splice(0, this.log.length - this.logLimit);
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  /** Requests per endpoint family and per wall-clock second, with the busiest second. */
  rates(): RequestRates {
    const perSecond = [...this.perSecond].map(([second, count]) => ({ second, count }));
    return {
      byFamily: Object.fromEntries(this.families),
      perSecond,
      peakPerSecond: perSecond.reduce((peak, s) => Math.max(peak, s.count), 0),
    };
  }

  requests(): RequestLogEntry[] {
    return this.log.slice(-this.logLimit).map((e) => ({ ...e }));
  }

  reset(): void {
    this.counts = new Map();
    this.families = new Map();
    this.perSecond = new Map();
    this.log = [];
  }

  private bump(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
