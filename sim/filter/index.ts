/**
 * Nomad's `filter` query parameter (go-bexpr, https://developer.hashicorp.com/nomad/api-docs#filtering)
 * for the list endpoints, with the 400s Nomad's paginator answers (`nomad/state/paginator`
 * `NewPaginator` and each endpoint's `List`): a filter that does not parse is refused before
 * anything is read; one that fails on a record ends the page with that error.
 */
import { SimHttpError } from '../errors';
import type { FilterExpression } from './ast';
import { evaluateFilter, FilterEvaluationError } from './evaluate';
import { parseFilterText } from './grammar';
import type { Shape } from './shapes';

export type { FilterExpression, MatchOperator, Selector } from './ast';
export { evaluateFilter, FilterEvaluationError } from './evaluate';
export { parseFilterText } from './grammar';
export { ALLOCATION, JOB, NODE, type Shape } from './shapes';

/** A parsed filter that tests records of one Go type. */
export interface ListFilter {
  readonly expression: FilterExpression;
  /** @throws SimHttpError 400 `failed to read result page: ...` when go-bexpr would fail on the record. */
  test(datum: unknown): boolean;
}

/**
 * The request's filter; `undefined` without one (or an empty one, which Nomad ignores).
 * @throws SimHttpError 400 `failed to create result paginator: failed to read filter expression: ...`
 */
export function listFilter(raw: string | null, shape: Shape): ListFilter | undefined {
  if (raw === null || raw === '') return undefined;
  const parsed = parseFilterText(raw);
  if ('error' in parsed) {
    throw new SimHttpError(
      400,
      `failed to create result paginator: failed to read filter expression: ${parsed.error}`,
    );
  }
  const expression = parsed.value;
  return {
    expression,
    test: (datum) => {
      try {
        return evaluateFilter(expression, datum, shape);
      } catch (error) {
        if (error instanceof FilterEvaluationError)
          throw new SimHttpError(400, `failed to read result page: ${error.message}`);
        throw error;
      }
    },
  };
}

/**
 * The value a filter of the form `<field> == "<value>"` (and nothing else) selects, so an
 * endpoint can read its index for that field instead of testing every record.
 */
export function equalityOn(filter: ListFilter | undefined, field: string): string | undefined {
  const e = filter?.expression;
  if (e?.kind !== 'match' || e.operator !== 'equal' || e.selector.type !== 'path') return undefined;
  return e.selector.path.length === 1 && e.selector.path[0] === field ? e.value : undefined;
}
