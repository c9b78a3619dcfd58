/**
 * A row of a table of restart inputs the validator refuses, as Nomad's `parseAndValidate` test
 * writes its cases: the case's name, the raw input, and the exact message.
 */
export function refusal<T>(
  name: string,
  raw: T,
  expectedErr: string,
): { name: string; raw: T; expectedErr: string } {
  return { name, raw, expectedErr };
}
