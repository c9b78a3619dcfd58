// Scenario: Nomad's filter language as go-bexpr parses and evaluates it, on a job shaped as
// Nomad's `structs.Job`: every operator, map keys that are missing, fields that do not exist,
// values coerced to the field's Go kind, and pigeon's parse errors word for word.
import { evaluateFilter, JOB, parseFilterText } from '../../../sim/filter';

const job = {
  ID: 'web-payments',
  Name: 'web-payments',
  Namespace: 'prod',
  Type: 'service',
  Priority: 70,
  Datacenters: ['dc1', 'dc2'],
  NodePool: 'gpu',
  Stop: false,
  Meta: { team: 'payments', tier: '' },
  Periodic: null,
  ParameterizedJob: { Payload: 'optional', MetaRequired: null, MetaOptional: null },
  TaskGroups: [
    { Name: 'web', Count: 2, Meta: { port: '8080' }, Tasks: [{ Name: 'main', Config: { n: 3 } }] },
  ],
};

/** Parses and evaluates `filter` on the job; the error text when it fails. */
function run(filter: string): boolean | string {
  const parsed = parseFilterText(filter);
  if ('error' in parsed) return `parse: ${parsed.error}`;
  try {
    return evaluateFilter(parsed.value, job, JOB);
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the simulator’s filter language', () => {
  it.each([
    ['Meta.team == "payments"', true],
    ['Meta["team"] == `payments`', true],
    ['"/Meta/team" == payments', true],
    ['Meta.team != "payments"', false],
    ['Type == service and Priority == 70', true],
    ['Priority == `0x46`', true],
    ['Priority != 71', true],
    ['Stop == false', true],
    ['Stop == 0', true],
    ['Name matches "^web-"', true],
    ['Name not matches "^api-"', true],
    ['"dc2" in Datacenters', true],
    ['Datacenters contains "dc3"', false],
    ['Datacenters not contains "dc3"', true],
    ['team in Meta', true],
    ['Meta contains owner', false],
    ['Name contains "pay"', true],
    ['Meta.tier is empty', true],
    ['Datacenters is not empty', true],
    ['Periodic is nil', true],
    ['ParameterizedJob is not nil', true],
    ['Periodic is empty', true],
    ['NodePool == "gpu" or (Type == "batch" and not Stop == true)', true],
    ['not not Meta.team == payments', true],
    ['TaskGroups.0.Meta.port == "8080"', true],
    ['TaskGroups.0.Count == 2', true],
    ['"dc1" in ["dc1", "dc9"]', true],
    ['Meta.tier == ""', true],
    ['Name != ""', true],
    ['Meta.team == "/payments"', true],
  ])('evaluates %s as %s', (filter, expected) => {
    // Act / Assert
    expect(run(filter)).toBe(expected);
  });

  it.each([
    ['Meta.owner == "x"', false],
    ['Meta.owner != "x"', true],
    ['Meta.owner is empty', true],
    ['Meta.owner is nil', true],
    ['Meta.owner matches ".*"', false],
    ['Meta.owner not matches ".*"', true],
    ['"x" in Meta.owner', false],
  ])('lets a missing map key match as go-bexpr does: %s is %s', (filter, expected) => {
    // Act / Assert
    expect(run(filter)).toBe(expected);
  });

  it.each([
    [
      'Metadata.team == "x"',
      'error finding value in datum: /Metadata/team at part 0: couldn\'t find key: struct field with name "Metadata"',
    ],
    [
      'TaskGroups.0.Nme == "x"',
      'error finding value in datum: /TaskGroups/0/Nme at part 2: couldn\'t find key: struct field with name "Nme"',
    ],
    ['Stop.value == "x"', 'error finding value in datum: /Stop/value: at part 1, invalid value kind: bool'],
    [
      'Periodic.Enabled == true',
      'error finding value in datum: /Periodic/Enabled: at part 1, invalid value kind: invalid',
    ],
    [
      'Priority == high',
      'error getting match value in expression: strconv.ParseInt: parsing "high": invalid syntax',
    ],
    [
      'Stop == maybe',
      'error getting match value in expression: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    ['Datacenters == "dc1"', 'unable to find suitable primitive comparison function for matching'],
    ['"x" in Priority', 'Cannot perform in/contains operations on type int for selector: "Priority"'],
    ['Priority matches "7"', 'Value of type int is not convertible to []byte'],
  ])('fails %s as go-bexpr does', (filter, message) => {
    // Act / Assert
    expect(run(filter)).toBe(message);
  });

  it.each([
    ['NotValid', '1:9 (8): no match found, expected: "!=", ".", "==", "[", [ \\t\\r\\n] or [a-zA-Z0-9_/]'],
    [
      'Name ==',
      '1:8 (7): no match found, expected: "-", "0", "[", "\\"", "`", [ \\t\\r\\n], [1-9] or [a-zA-Z]',
    ],
    [
      '',
      '1:1 (0): no match found, expected: "(", "-", "0", "[", "\\"", "`", "not", [ \\t\\r\\n], [1-9] or [a-zA-Z]',
    ],
    ['a == b or', '1:10 (9): no match found, expected: [ \\t\\r\\n]'],
    ['(Type == "a"', '1:13 (12): rule grouping: Unmatched parentheses'],
    ['Priority == 5x', '1:14 (13): rule number: Invalid number literal'],
    ['Name == "abc', '1:13 (12): rule string: Unterminated string literal'],
    ['Name == "a\\q"', '1:9 (8): rule string: invalid syntax'],
    ['Meta[team] == "x"', '1:6 (5): rule index: Invalid index'],
  ])('refuses %j with pigeon’s words', (filter, message) => {
    // Act / Assert
    expect(run(filter)).toBe(`parse: ${message}`);
  });
});
