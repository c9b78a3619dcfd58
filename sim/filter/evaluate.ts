/**
 * go-bexpr's evaluation (`evaluate.go`): each match operator on the value its selector finds,
 * the raw value coerced to the field's Go kind (`strconv.ParseInt(raw, 0, 64)` for an `int`, ...),
 * a map's missing key matching nothing, and go-bexpr's error texts.
 */
import type { FilterExpression, Selector } from './ast';
import { parseGoBool, parseGoFloat, parseGoInt } from './go-strconv';
import { concrete, FilterEvaluationError, kindOf, MISSING, resolve, type Typed } from './resolve';
import type { Shape } from './shapes';

export { FilterEvaluationError } from './resolve';

type Match = Extract<FilterExpression, { kind: 'match' }>;

/** Whether `datum` (of Go type `shape`) passes the filter. @throws FilterEvaluationError */
export function evaluateFilter(expression: FilterExpression, datum: unknown, shape: Shape): boolean {
  switch (expression.kind) {
    case 'and':
      return evaluateFilter(expression.left, datum, shape) && evaluateFilter(expression.right, datum, shape);
    case 'or':
      return evaluateFilter(expression.left, datum, shape) || evaluateFilter(expression.right, datum, shape);
    case 'not':
      return !evaluateFilter(expression.operand, datum, shape);
    case 'match':
      return evaluateMatch(expression, datum, shape);
  }
}

function evaluateMatch(match: Match, datum: unknown, shape: Shape): boolean {
  const found = lookUp(match.selector, { shape, value: datum });
  if (found === MISSING) return MISSING_ANSWERS[match.operator];
  const raw = match.value ?? '';
  switch (match.operator) {
    case 'equal':
      return equals(raw, found);
    case 'not-equal':
      return !equals(raw, found);
    case 'in':
      return contains(match, raw, found);
    case 'not-in':
      return !contains(match, raw, found);
    case 'is-empty':
      return isEmpty(found);
    case 'is-not-empty':
      return !isEmpty(found);
    case 'matches':
      return matches(raw, found);
    case 'not-matches':
      return !matches(raw, found);
    case 'is-nil':
      return found.value === null;
    case 'is-not-nil':
      return found.value !== null;
  }
}

/** What each operator answers for a map key that is not there (go-bexpr's `evaluate_test.go`). */
const MISSING_ANSWERS: Record<Match['operator'], boolean> = {
  equal: false,
  'not-equal': true,
  in: false,
  'not-in': true,
  'is-empty': true,
  'is-not-empty': false,
  matches: false,
  'not-matches': true,
  'is-nil': true,
  'is-not-nil': false,
};

function lookUp(selector: Selector, root: Typed): Typed | typeof MISSING {
  if (selector.type === 'inline') return { shape: { list: 'string' }, value: selector.values };
  try {
    return resolve(root, selector.path);
  } catch (error) {
    if (!(error instanceof FilterEvaluationError)) throw error;
    throw new FilterEvaluationError(`error finding value in datum: ${error.message}`);
  }
}

/** `raw` as a value of the scalar kind `shape`, or undefined for a kind that has no equality. */
function coerce(raw: string, shape: Shape): unknown {
  try {
    if (shape === 'bool') return parseGoBool(raw);
    if (shape === 'int') return parseGoInt(raw, true);
    if (shape === 'uint') return parseGoInt(raw, false);
    if (shape === 'float') return parseGoFloat(raw);
  } catch (error) {
    throw new FilterEvaluationError(`error getting match value in expression: ${(error as Error).message}`);
  }
  return raw;
}

const SCALARS = new Set<Shape>(['string', 'int', 'uint', 'float', 'bool']);

function equals(raw: string, found: Typed): boolean {
  if (found.shape === 'opaque' && found.value !== null) return false; // a struct: Go compares its String()
  if (!SCALARS.has(found.shape)) {
    throw new FilterEvaluationError('unable to find suitable primitive comparison function for matching');
  }
  const expected = coerce(raw, found.shape);
  return expected === found.value;
}

function contains(match: Match, raw: string, found: Typed): boolean {
  const { shape, value } = found;
  if (shape === 'string') return (value as string).includes(raw);
  if (typeof shape === 'object' && 'map' in shape)
    return value !== null && Object.hasOwn(value as object, raw);
  if (typeof shape === 'object' && 'list' in shape) {
    return ((value ?? []) as unknown[]).some((item) => {
      const element = concrete({ shape: shape.list, value: item });
      if (!SCALARS.has(element.shape)) {
        throw new FilterEvaluationError(
          'unable to find suitable primitive comparison function for "in" comparison',
        );
      }
      try {
        return equals(raw, element);
      } catch (error) {
        // As go-bexpr in an []interface{}: an element the value cannot be read as is skipped.
        if (shape.list === 'any' && error instanceof FilterEvaluationError) return false;
        throw error;
      }
    });
  }
  throw new FilterEvaluationError(
    `Cannot perform in/contains operations on type ${kindOf(found)} for selector: ${JSON.stringify(match.selector.text)}`,
  );
}

/**
 * Collections and strings by length; a nil pointer is empty and a struct is not (go-bexpr pull
 * request #129); another scalar by its zero value.
 */
function isEmpty(found: Typed): boolean {
  const { shape, value } = found;
  if (value === null) return true;
  if (shape === 'string') return value === '';
  if (typeof shape === 'object' && 'list' in shape) return (value as unknown[]).length === 0;
  if (typeof shape === 'object' && 'map' in shape) return Object.keys(value as object).length === 0;
  if (SCALARS.has(shape)) return value === 0 || value === false;
  return false;
}

const compiled = new Map<string, RegExp>();

function matches(raw: string, found: Typed): boolean {
  if (found.shape !== 'string') {
    throw new FilterEvaluationError(`Value of type ${kindOf(found)} is not convertible to []byte`);
  }
  let re = compiled.get(raw);
  if (re === undefined) {
    try {
      // Go's RE2 names groups `(?P<name>...)`; JavaScript's `(?<name>...)`.
      re = new RegExp(raw.replaceAll('(?P<', '(?<'), 'u');
    } catch (error) {
      throw new FilterEvaluationError(
        `Failed to compile regular expression ${JSON.stringify(raw)}: error parsing regexp: ${(error as Error).message}`,
      );
    }
    compiled.set(raw, re);
  }
  return re.test(found.value as string);
}
