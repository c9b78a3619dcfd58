/**
 * Go's `strconv` rules that Nomad's inputs pass through: what Go accepts as a boolean (flags,
 * `NOMAD_SKIP_VERIFY`, query parameters).
 */

/** Go's `strconv.ParseBool`: `undefined` for anything it would reject. */
export function parseGoBool(value: string): boolean | undefined {
  switch (value) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false;
    default:
      return undefined;
  }
}
