/**
 * Finding a selector's value in a datum as go-bexpr does it with mitchellh/pointerstructure:
 * struct fields by exact name, map keys, list indexes, with pointerstructure's error texts
 * (`/Meta/team at part 1: ...`, `/Stop/x: at part 1, invalid value kind: bool`).
 */
import type { Shape } from './shapes';

/** A value with its Go type; `nil` marks a nil pointer, map, slice or interface. */
export interface Typed {
  readonly shape: Shape;
  readonly value: unknown;
}

/** A map key that is not there: go-bexpr lets it match nothing instead of failing. */
export const MISSING = Symbol('missing');

/** Raised for what go-bexpr reports as `error finding value in datum: ...`. */
export class FilterEvaluationError extends Error {}

/** The shape of a stored JSON value in an `opaque` struct (`inInterface`: under an `interface{}`, as Go decodes it). */
export function shapeOfJson(value: unknown, inInterface: boolean): Shape {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return inInterface || !Number.isInteger(value) ? 'float' : 'int';
  if (Array.isArray(value)) return { list: inInterface ? 'any' : 'opaque' };
  if (value !== null && typeof value === 'object') return inInterface ? { map: 'any' } : { ptr: 'opaque' };
  return { ptr: 'opaque' };
}

/** Resolves `any`/`opaque` to a concrete shape for `value`, and follows pointers (Go's `reflect.Indirect`). */
export function concrete(typed: Typed): Typed {
  let { shape } = typed;
  const { value } = typed;
  if (shape === 'any') shape = shapeOfJson(value, true);
  while (typeof shape === 'object' && 'ptr' in shape) {
    if (value === null || value === undefined) return { shape: 'opaque', value: null };
    shape = shape.ptr;
  }
  if (shape === 'opaque' && (value === null || value === undefined)) return { shape, value: null };
  return { shape, value };
}

/** Go's `reflect.Kind` name of a concrete value (`invalid` for a nil pointer). */
export function kindOf(typed: Typed): string {
  const { shape, value } = typed;
  if (shape === 'opaque') return value === null ? 'invalid' : 'struct';
  if (typeof shape === 'string') return GO_KINDS[shape] ?? shape;
  if ('map' in shape) return 'map';
  if ('list' in shape) return 'slice';
  return 'struct';
}
const GO_KINDS: Record<string, string> = { int: 'int', uint: 'uint64', float: 'float64' };

/** The value at `path`, {@link MISSING} for an absent map key. @throws FilterEvaluationError */
export function resolve(root: Typed, path: readonly string[]): Typed | typeof MISSING {
  const pointer = `/${path.join('/')}`;
  let current = concrete(root);
  for (const [i, part] of path.entries()) {
    const { shape, value } = current;
    const object = value as Record<string, unknown>;
    let next: Typed;
    if (shape === 'opaque' && value !== null) {
      if (!Object.hasOwn(object, part)) throw notFound(pointer, i, `struct field with name "${part}"`);
      next = { shape: shapeOfJson(object[part], false), value: object[part] };
    } else if (typeof shape === 'object' && 'struct' in shape) {
      const field = shape.struct[part];
      if (field === undefined) throw notFound(pointer, i, `struct field with name "${part}"`);
      next = { shape: field, value: object?.[part] ?? zeroOf(field) };
    } else if (typeof shape === 'object' && 'map' in shape) {
      if (value === null || !Object.hasOwn(object, part)) return MISSING;
      next = { shape: shape.map, value: object[part] };
    } else if (typeof shape === 'object' && 'list' in shape) {
      const items = (value ?? []) as unknown[];
      const at = Number(part);
      if (!/^\d+$/.test(part) || at >= items.length) throw notFound(pointer, i, `index ${part} out of range`);
      next = { shape: shape.list, value: items[at] };
    } else {
      throw new FilterEvaluationError(`${pointer}: at part ${i}, invalid value kind: ${kindOf(current)}`);
    }
    current = concrete(next);
  }
  return current;
}

/** Go's zero value of a field the stored JSON leaves out. */
function zeroOf(shape: Shape): unknown {
  if (shape === 'string') return '';
  if (shape === 'bool') return false;
  if (shape === 'int' || shape === 'uint' || shape === 'float') return 0;
  return null;
}

function notFound(pointer: string, part: number, what: string): FilterEvaluationError {
  return new FilterEvaluationError(`${pointer} at part ${part}: couldn't find key: ${what}`);
}
