/**
 * The IAM check sees every call the code can make, not only the ones a test walks: per handler,
 * the AWS operations its code can reach (derived from the code, reachable-operations.ts) against
 * those its function made under the IAM check in the IAM-checked test files (run now when their
 * record is not fresh, exercised-operations.ts) and the actions its role grants in the full
 * stack's template. An operation no IAM-checked test made fails with the call's place and the
 * test to write; a grant no operation needs fails with the grant to remove.
 *
 * The table (handler | reachable | exercised | granted) is printed on every run.
 */
import { exercisedOperations } from './helpers/exercised-operations';
import { fullStackTemplate } from './helpers/full-stack-template';
import { compareInventory, inventoryTable } from './helpers/operation-inventory';
import { reachableOperations } from './helpers/reachable-operations';
import { TemplateIam } from './helpers/template-iam';

const ROOT = process.cwd();
const FULL_STACK = await fullStackTemplate();

describe('the AWS operations each handler can make', () => {
  const inventory = (() => {
    let result: ReturnType<typeof compareInventory> | undefined;
    return () => {
      result ??= compareInventory(
        new TemplateIam(FULL_STACK),
        reachableOperations(ROOT),
        exercisedOperations(ROOT),
      );
      return result;
    };
  })();

  beforeAll(() => {
    process.stdout.write(`${inventoryTable(inventory().rows)}\n`);
  });

  it('finds the calls a handler makes through a store, a dynamic import and a secrets helper', () => {
    // Arrange
    const { rows } = inventory();

    // Act
    const of = (handler: string) => rows.find((r) => r.handler === handler)?.reachable;

    // Assert: Lock job's lock (a store loaded by import()), its holder's status (a destructured
    // dynamic import of the SFN client) and its Nomad token (Powertools' SecretsProvider).
    expect(of('lock-job')).toEqual(
      expect.arrayContaining([
        'dynamodb:DeleteItem',
        'dynamodb:PutItem',
        'states:DescribeExecution',
        'secretsmanager:GetSecretValue',
      ]),
    );
    // Validate input's one outside read: the run's alarms (a reader loaded by import()).
    expect(of('validate-input')).toEqual(['cloudwatch:DescribeAlarms']);
  });

  it('has every operation the code can make exercised under the IAM check, and every grant needed', () => {
    // Arrange
    const { gaps } = inventory();

    // Act
    const messages = gaps.map((g) => g.message);

    // Assert
    expect(messages).toEqual([]);
  });
});
