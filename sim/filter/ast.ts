/** The filter expression tree, as go-bexpr's `grammar/ast.go` has it. */

/** go-bexpr's match operators (`contains` parses as `in`, `not contains` as `not in`). */
export type MatchOperator =
  | 'equal'
  | 'not-equal'
  | 'in'
  | 'not-in'
  | 'is-empty'
  | 'is-not-empty'
  | 'matches'
  | 'not-matches'
  | 'is-nil'
  | 'is-not-nil';

/**
 * What a match looks at: a dotted path (`Meta.team`, `Meta["team"]`), a JSON pointer
 * (`"/Meta/team"`), or an inline list of strings (`["a", "b"]`).
 */
export type Selector =
  | { readonly type: 'path'; readonly path: readonly string[]; readonly text: string }
  | { readonly type: 'inline'; readonly values: readonly string[]; readonly text: string };

/** A filter expression. */
export type FilterExpression =
  | { readonly kind: 'and' | 'or'; readonly left: FilterExpression; readonly right: FilterExpression }
  | { readonly kind: 'not'; readonly operand: FilterExpression }
  | {
      readonly kind: 'match';
      readonly selector: Selector;
      readonly operator: MatchOperator;
      /** The raw value (quotes removed, escapes applied); absent for the `is ...` operators. */
      readonly value?: string;
    };
