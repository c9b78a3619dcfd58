/**
 * One decoded plan per warm process, so the steps of a run do not fetch and parse it again each time.
 */
import type { RestartPlan } from '../../restart/plan';

/**
 * The plan this process decoded last. A plan is written once, by the run's first step, and never
 * changed afterwards, so the later steps of the run (three per batch) can share one decoded
 * copy: a warm Lambda saves an S3 GET and the parse of up to megabytes per step, the local engine
 * the parse. One entry: a process works on one run at a time, and a plan can be large.
 */
let last: { readonly key: string; readonly plan: Promise<RestartPlan> } | undefined;

/** Keeps the plan the Plan step just wrote (its only writer), replacing any older one of that key. */
export function rememberPlan(key: string, plan: RestartPlan): void {
  last = { key, plan: Promise.resolve(plan) };
}

/** The plan stored under `key`, read through `load` only when it is not the one cached. */
export function cachedPlan(key: string, load: (key: string) => Promise<RestartPlan>): Promise<RestartPlan> {
  if (last?.key === key) return last.plan;
  const plan = load(key);
  const entry = { key, plan };
  last = entry;
  // A failed read is not remembered: the next step tries the store again.
  plan.catch(() => {
    if (last === entry) last = undefined;
  });
  return plan;
}
