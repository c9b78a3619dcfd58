/** What every part of the model shares: state, time, randomness, timing knobs and hooks. */
import type { SimClock, TimerSet } from '../clock';
import type { ConsulCatalog } from '../consul/catalog';
import { uuidFrom } from '../ids';
import type { Behaviours } from './behaviours';
import type { AllocRecord, Store } from './store';

/**
 * Timing knobs, in simulated milliseconds. Defaults are in {@link DEFAULT_TIMING}.
 */
export interface SimTiming {
  /** Delay between an evaluation's creation and the scheduler processing it. */
  schedulerDelayMs: number;
  /** How long a placed allocation stays `pending` before its tasks start (`running`). */
  allocStartMs: number;
  /** Time to kill a task (restart and stop), on top of any shutdown delay. */
  taskKillMs: number;
  /** Default `min_healthy_time` for deployments when the update block has none. */
  deploymentHealthyMs: number;
  /** How long a task takes to start again after a user-requested restart killed it. */
  taskRestartMs: number;
}

/**
 * Defaults: eval 100 ms, pending→running 1 s, kill 100 ms, deployment healthy after 10 s (Nomad's
 * `min_healthy_time`), a restarted task running again at once.
 */
export const DEFAULT_TIMING: SimTiming = {
  schedulerDelayMs: 100,
  allocStartMs: 1000,
  taskKillMs: 100,
  deploymentHealthyMs: 10_000,
  taskRestartMs: 0,
};

/** Callbacks from the client model back to the scheduler and deployment watcher. */
export interface SimHooks {
  /** An allocation's main tasks started (deployment health). */
  allocRunning(record: AllocRecord): void;
  /** Capacity was freed or added (blocked evaluations may now place). */
  capacityChanged(): void;
  /** The client changed an allocation's tasks (or is stopping it): its Consul services follow. */
  tasksChanged(record: AllocRecord): void;
}

export interface SimContext {
  store: Store;
  clock: SimClock;
  timers: TimerSet;
  random: () => number;
  timing: SimTiming;
  hooks: SimHooks;
  /** Check behaviours and crashes switched on through the control API. */
  behaviours: Behaviours;
  /** The simulator's Consul catalog, which the clients register their Consul services in. */
  consul: ConsulCatalog;
}

/** A new UUID from the context's random source. */
export function newId(ctx: SimContext): string {
  return uuidFrom(ctx.random);
}

/** Simulated now in Unix nanoseconds, Nomad's unit for most times. */
export function nowNs(ctx: SimContext): number {
  return Math.round(ctx.clock.now()) * 1_000_000;
}

/**
 * Simulated now as RFC 3339, on the same whole millisecond as {@link nowNs}: a scaled clock has
 * fractions, and a time printed both ways (a task's `StartedAt` and its `Started` event, a
 * variable's `ModifyTime`) must not read as two instants.
 */
export function nowRfc3339(ctx: SimContext): string {
  return new Date(Math.round(ctx.clock.now())).toISOString();
}

/** Go's zero time, which Nomad prints for "never". */
export const ZERO_TIME = '0001-01-01T00:00:00Z';
