/**
 * Whether an execution is a fleet's, from the input it started with (its oldest history event):
 * a one-job input names its job, a fleet's never does and reads as a fleet input.
 */
import { validateFleetInput } from '../../fleet/input';
import type { FleetOptions } from '../../fleet/options';
import { RestartValidationError } from '../../restart/errors';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fleet options of start input `input`; `undefined` when it is not a fleet's (a one-job run's,
 * or not readable as a fleet's: the one-job reading then reports what is wrong in its words).
 */
export function fleetOptionsOf(input: unknown): FleetOptions | undefined {
  if (!isObject(input) || 'job' in input) return undefined;
  try {
    return validateFleetInput(input, { interactive: true });
  } catch (error) {
    if (error instanceof RestartValidationError) return undefined;
    throw error;
  }
}
