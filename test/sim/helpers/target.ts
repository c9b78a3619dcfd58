/**
 * The one switch between the simulator and a real Nomad agent. With `NOMAD_E2E_ADDR` set,
 * API-only tests run against that agent and tests that need the control API are not run
 * (their reason is printed); without it everything runs against an in-process simulator.
 */
import {
  type RunningSimulator,
  type SimControl,
  type SimulatorOptions,
  startSimulator,
} from '../../../sim/index';
import { openedAroundAll } from '../../fixtures/opened-around';

/** Where the tests send requests. `control` is absent against a real agent. */
export interface Target {
  address: string;
  control: SimControl | undefined;
  close(): Promise<void>;
}

/** The real agent's address, when the end-to-end mode is on. */
export const E2E_ADDR = process.env['NOMAD_E2E_ADDR'];

/** Time scale the tests run the simulator at: 1 simulated second = 10 real ms. */
export const TEST_TIME_SCALE = 0.01;

/** Opens a target: the real agent, or a fresh simulator with `options`. */
export async function openTarget(options: SimulatorOptions = {}): Promise<Target> {
  if (E2E_ADDR) return { address: E2E_ADDR, control: undefined, close: async () => {} };
  const sim: RunningSimulator = await startSimulator({ timeScale: TEST_TIME_SCALE, ...options });
  return sim;
}

/**
 * One target for the tests of a file (or a `describe`): opened before the first, closed after
 * the last, and the simulator reset before each so no test sees another's faults or jobs.
 */
export function sharedTarget(options: SimulatorOptions = {}): Target {
  const target = openedAroundAll(
    () => openTarget(options),
    (opened) => opened.close(),
  );
  beforeEach(() => target.control?.reset());
  return target;
}

/**
 * `it` for tests that need the simulator's control API: against a real agent it prints why
 * the test is not run instead of registering it.
 */
export function itSim(name: string, fn: () => Promise<void>): void {
  if (E2E_ADDR) {
    console.log(`not run against ${E2E_ADDR}: "${name}" needs the simulator control API`);
    return;
  }
  it(name, fn);
}

/** `it.each` for tests that need the control API. */
export function itSimEach<T>(rows: readonly T[]): (name: string, fn: (row: T) => Promise<void>) => void {
  return (name, fn) => {
    if (E2E_ADDR) {
      console.log(`not run against ${E2E_ADDR}: "${name}" needs the simulator control API`);
      return;
    }
    it.each(rows as T[])(name, fn);
  };
}

/** Asserts the target is a simulator (for code after an `itSim` guard). */
export function simControl(target: Target): SimControl {
  if (!target.control) throw new Error('this test needs the simulator control API');
  return target.control;
}
