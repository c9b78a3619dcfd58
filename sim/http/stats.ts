/** Request counters keyed by route pattern, and the request log (tokens never recorded). */
import type { RequestLogEntry } from '../types';

/** The log keeps the most recent entries only, so a long demo cannot grow without bound. */
export const MAX_LOG_ENTRIES = 100_000;

export class RequestStats {
  private counts = new Map<string, number>();
  private log: RequestLogEntry[] = [];

  record(key: string, entry: RequestLogEntry, blocking: boolean): void {
    this.bump(key);
    this.bump('total');
    if (blocking) this.bump('total:blocking');
    if (entry.status !== 200) this.bump('total:errors');
    this.log.push(entry);
    if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  requests(): RequestLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  reset(): void {
    this.counts = new Map();
    this.log = [];
  }

  private bump(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
