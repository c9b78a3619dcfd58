/**
 * The shapes the job decoder (job-spec.ts) checks a submitted job against, Go's types in words:
 * apart from the decoder so the task blocks' own shapes (templates.ts) can use them too.
 */

/** A Go scalar the decoder checks (`duration`: nanoseconds). */
export type Scalar = 'string' | 'int' | 'duration' | 'bool' | 'any';
/** A Go struct the decoder checks: its name and its fields' shapes. */
export interface ObjectShape {
  go: string;
  fields: Record<string, Shape>;
}
/** What the decoder checks a JSON value against. */
export type Shape = Scalar | ObjectShape | { array: Shape; go: string } | { map: Shape; go: string };
