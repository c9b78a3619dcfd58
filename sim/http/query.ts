/** Query parameters as Nomad's agent parses them (`command/agent/http.go`). */
import { parseGoBool } from '../../lib/go/strconv';
import { SimHttpError } from '../errors';
import type { ApiRequest } from './api';

/**
 * A boolean parameter (Nomad's `parseBool`): Go's `strconv.ParseBool`, `fallback` when absent.
 * @throws SimHttpError 500 with Nomad's text for a value Go does not read as a bool
 */
export function boolParam(req: ApiRequest, name: string, fallback = false): boolean {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = parseGoBool(raw);
  if (value === undefined) {
    throw new SimHttpError(
      500,
      `Failed to parse value of "${name}" (${raw}) as a bool: strconv.ParseBool: parsing "${raw}": invalid syntax`,
    );
  }
  return value;
}
