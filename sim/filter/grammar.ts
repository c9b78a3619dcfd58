/**
 * go-bexpr's grammar (`grammar/grammar.peg` in hashicorp/go-bexpr), rule for rule and in the same
 * order of alternatives, so a malformed filter fails at the same place with the same expectations
 * as on Nomad. `is nil` / `is not nil` are the operators of go-bexpr's pull request #129.
 */
import type { FilterExpression, MatchOperator, Selector } from './ast';
import { goUnquote } from './go-unquote';
import {
  action,
  ahead,
  any,
  choice,
  cls,
  type Expr,
  FAIL,
  lit,
  many,
  not,
  opt,
  PegParser,
  raise,
  rule,
  seq,
} from './peg';

const ws = rule<unknown>('whitespace');
ws.body = many(cls('[ \\t\\r\\n]', /[ \t\r\n]/), 1);
const _ = ws;
const eof = not(any);

const input = rule<FilterExpression>('Input');
const orExpr = rule<FilterExpression>('OrExpression');
const andExpr = rule<FilterExpression>('AndExpression');
const notExpr = rule<FilterExpression>('NotExpression');
const grouping = rule<FilterExpression>('grouping');
const match = rule<FilterExpression>('match');
const selector = rule<Selector>('selector');
const identifier = rule<string>('Identifier');
const selectorOrIndex = rule<string>('SelectorOrIndex');
const index = rule<string>('index');
const value = rule<string>('value');
const numberLiteral = rule<string>('number');
const stringLiteral = rule<string>('string');

const pick =
  <T>(i: number) =>
  (values: unknown[]) =>
    values[i] as T;

input.body = choice(
  action(seq(opt(_), lit('('), opt(_), orExpr, opt(_), lit(')'), opt(_), eof), pick<FilterExpression>(3)),
  action(seq(opt(_), orExpr, opt(_), eof), pick<FilterExpression>(1)),
);

const binary = (kind: 'and' | 'or') => (values: unknown[]) =>
  ({ kind, left: values[0], right: values[4] }) as FilterExpression;
orExpr.body = choice(action(seq(andExpr, _, lit('or'), _, orExpr), binary('or')), andExpr);
andExpr.body = choice(action(seq(notExpr, _, lit('and'), _, andExpr), binary('and')), notExpr);
notExpr.body = choice(
  action(seq(lit('not'), _, notExpr), (values): FilterExpression => {
    const operand = values[2] as FilterExpression;
    // As go-bexpr: `not not e` is `e`.
    return operand.kind === 'not' ? operand.operand : { kind: 'not', operand };
  }),
  grouping,
);
grouping.body = choice(
  action(seq(lit('('), opt(_), orExpr, opt(_), lit(')')), pick<FilterExpression>(2)),
  match,
  seq(lit('('), opt(_), orExpr, opt(_), not(lit(')')), raise('Unmatched parentheses')) as Expr<never>,
);

const op = (e: Expr, operator: MatchOperator): Expr<MatchOperator> => action(e, () => operator);
const equal = op(seq(opt(_), lit('=='), opt(_)), 'equal');
const notEqual = op(seq(opt(_), lit('!='), opt(_)), 'not-equal');
const isEmpty = op(seq(_, lit('is'), _, lit('empty')), 'is-empty');
const isNotEmpty = op(seq(_, lit('is'), _, lit('not'), _, lit('empty')), 'is-not-empty');
const isNil = op(seq(_, lit('is'), _, lit('nil')), 'is-nil');
const isNotNil = op(seq(_, lit('is'), _, lit('not'), _, lit('nil')), 'is-not-nil');
const inOp = op(seq(_, lit('in'), _), 'in');
const notIn = op(seq(_, lit('not'), _, lit('in'), _), 'not-in');
const contains = op(seq(_, lit('contains'), _), 'in');
const notContains = op(seq(_, lit('not'), _, lit('contains'), _), 'not-in');
const matches = op(seq(_, lit('matches'), _), 'matches');
const notMatches = op(seq(_, lit('not'), _, lit('matches'), _), 'not-matches');

const selectorOpValue = rule<FilterExpression>('match');
selectorOpValue.body = action(
  seq(selector, choice(equal, notEqual, contains, notContains, matches, notMatches), value),
  ([s, operator, v]) => ({ kind: 'match', selector: s, operator, value: v }) as FilterExpression,
);
const selectorOp = rule<FilterExpression>('match');
selectorOp.body = action(
  seq(selector, choice(isEmpty, isNotEmpty, isNil, isNotNil)),
  ([s, operator]) => ({ kind: 'match', selector: s, operator }) as FilterExpression,
);
const valueOpSelector = rule<FilterExpression>('match');
valueOpSelector.body = choice(
  action(
    seq(value, choice(inOp, notIn), selector),
    ([v, operator, s]) => ({ kind: 'match', selector: s, operator, value: v }) as FilterExpression,
  ),
  seq(value, choice(inOp, notIn), not(selector), raise('Invalid selector')) as Expr<never>,
);
match.body = choice(selectorOpValue, selectorOp, valueOpSelector);

const pathSelector = action(seq(identifier, many(selectorOrIndex)), ([first, rest]): Selector => {
  const path = [first as string, ...(rest as string[])];
  return { type: 'path', path, text: path.join('.') };
});
const inlineSelector = action(
  seq(lit('['), opt(_), stringLiteral, many(seq(lit(','), opt(_), stringLiteral)), opt(_), lit(']')),
  ([, , first, rest]): Selector => {
    const values = [first as string, ...(rest as unknown[][]).map((tuple) => tuple[2] as string)];
    return { type: 'inline', values, text: values.join(',') };
  },
);
const pointerSegment = action(
  seq(lit('/'), many(cls('[\\pL\\pN-_.~:|]', /[\p{L}\p{N}\-_.~:|]/u), 1)),
  (_v, text) => text.slice(1),
);
const pointerSelector = action(seq(lit('"'), many(pointerSegment), lit('"')), ([, segments]): Selector => {
  // pointerstructure.Parse("/" + segments): `""` is the pointer "/", one empty part.
  const parts = (segments as string[]).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const path = parts.length > 0 ? parts : [''];
  // go-bexpr's Selector.String() joins a pointer's parts without the leading slash: as a value,
  // `"/web"` reads `web` and `""` reads the empty string.
  return { type: 'path', path, text: path.join('/') };
});
selector.body = choice(pathSelector, inlineSelector, pointerSelector);

identifier.body = action(
  seq(cls('[a-zA-Z]', /[a-zA-Z]/), many(cls('[a-zA-Z0-9_/]', /[a-zA-Z0-9_/]/))),
  (_v, text) => text,
);
selectorOrIndex.body = choice(
  action(seq(lit('.'), identifier), pick<string>(1)),
  index,
  action(seq(lit('.'), many(cls('[0-9]', /[0-9]/), 1)), (_v, text) => text.slice(1)),
);
index.body = choice(
  action(seq(lit('['), opt(_), stringLiteral, opt(_), lit(']')), pick<string>(2)),
  seq(lit('['), opt(_), not(stringLiteral), raise('Invalid index')) as Expr<never>,
  seq(
    lit('['),
    opt(_),
    stringLiteral,
    opt(_),
    not(lit(']')),
    raise('Unclosed index expression'),
  ) as Expr<never>,
);

value.body = choice(
  action(selector, (s) => s.text),
  numberLiteral,
  stringLiteral,
);
const integerOrFloat = seq(
  choice<unknown>(lit('0'), seq(cls('[1-9]', /[1-9]/), many(cls('[0-9]', /[0-9]/)))),
  opt(seq(lit('.'), many(cls('[0-9]', /[0-9]/), 1))),
);
const afterNumbers = ahead(choice(_, eof, lit(')')));
numberLiteral.body = choice(
  action(seq(opt(lit('-')), integerOrFloat, afterNumbers), (_v, text) => text),
  seq(opt(lit('-')), integerOrFloat, not(afterNumbers), raise('Invalid number literal')) as Expr<never>,
);
const rawChar = seq(not(lit('`')), any);
const doubleChar = seq(not(lit('"')), any);
stringLiteral.body = choice(
  action(
    choice(seq(lit('`'), many(rawChar), lit('`')), seq(lit('"'), many(doubleChar), lit('"'))),
    (_v, text) => goUnquote(text),
  ),
  seq(
    choice(seq(lit('`'), many(rawChar)), seq(lit('"'), many(doubleChar))),
    eof,
    raise('Unterminated string literal'),
  ) as Expr<never>,
);

/** Parses a filter: the expression, or pigeon's error text (what Nomad wraps in its 400). */
export function parseFilterText(text: string): { value: FilterExpression } | { error: string } {
  const parser = new PegParser(text);
  const result = input(parser);
  return parser.finish(result === FAIL ? FAIL : result);
}
