/**
 * Every AWS operation each handler's code can make, derived from the code (reachable-code.ts):
 * in the code a handler can run, each construction of an AWS SDK command (`new GetObjectCommand`,
 * the document client's `new PutCommand`) and of a helper that calls AWS itself (the Powertools
 * `SecretsProvider` reads with `GetSecretValue`), resolved by the compiler to the package that
 * declares it, whichever way it was imported (`import`, `await import(…)`, a destructured
 * dynamic import). Each is then named as IAM authorizes it (sdk-iam-actions.ts).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { type CodeUnit, handlersProgram, isUnitOfItsOwn, reachableCode } from './reachable-code';
import { iamActionOf } from './sdk-iam-actions';

/** One operation a handler can make, and where. */
export interface ReachableOperation {
  /** The SDK's service id (`S3`, `DynamoDB`, `SFN`, `SNS`, `Secrets Manager`, `CloudWatch`). */
  readonly service: string;
  /** The API operation (`GetItem`, not the document client's `Get`). */
  readonly operation: string;
  /** What IAM authorizes it as (`dynamodb:GetItem`). */
  readonly action: string;
  /** Each place in the project that makes it, as `file:line`. */
  readonly sites: readonly string[];
}

/** The service each AWS client package speaks to. */
const SERVICE_OF_PACKAGE: Readonly<Record<string, string>> = {
  '@aws-sdk/client-s3': 'S3',
  '@aws-sdk/client-dynamodb': 'DynamoDB',
  '@aws-sdk/lib-dynamodb': 'DynamoDB',
  '@aws-sdk/client-sfn': 'SFN',
  '@aws-sdk/client-sns': 'SNS',
  '@aws-sdk/client-secrets-manager': 'Secrets Manager',
  '@aws-sdk/client-cloudwatch': 'CloudWatch',
};

/** The document client's commands, by the API operation each sends (lib-dynamodb's README). */
const DOCUMENT_COMMANDS: Readonly<Record<string, string>> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

/**
 * Helpers that call AWS themselves, by package and class: what each construction can send.
 * `SecretsProvider.get` reads with `GetSecretValue` (Powertools' parameters utility, secrets).
 */
const HELPERS: Readonly<Record<string, Readonly<Record<string, { service: string; operation: string }>>>> = {
  '@aws-lambda-powertools/parameters': {
    SecretsProvider: { service: 'Secrets Manager', operation: 'GetSecretValue' },
  },
};

/** The npm package a declaration file belongs to (`…/node_modules/@aws-sdk/client-s3/dist-types/…`). */
function packageOf(fileName: string): string | undefined {
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(fileName);
  return match?.[1];
}

/** The AWS operation `new <expression>(…)` sends, if the class is an AWS command or helper. */
function operationOf(
  checker: ts.TypeChecker,
  expression: ts.Expression,
): { service: string; operation: string } | undefined {
  const symbol = checker.getTypeAtLocation(expression).getSymbol();
  const declaration = symbol?.declarations?.[0];
  const pkg = declaration === undefined ? undefined : packageOf(declaration.getSourceFile().fileName);
  if (symbol === undefined || pkg === undefined) return undefined;
  const helper = HELPERS[pkg]?.[symbol.name];
  if (helper !== undefined) return helper;
  const service = SERVICE_OF_PACKAGE[pkg];
  if (!symbol.name.endsWith('Command')) return undefined;
  if (service === undefined) {
    if (pkg.startsWith('@aws-sdk/'))
      throw new Error(`${pkg} ${symbol.name}: add its service to test/iam/helpers/reachable-operations.ts`);
    return undefined;
  }
  const name = symbol.name.replace(/Command$/, '');
  return { service, operation: pkg === '@aws-sdk/lib-dynamodb' ? (DOCUMENT_COMMANDS[name] ?? name) : name };
}

function siteOf(root: string, node: ts.Node): string {
  const file = node.getSourceFile();
  return `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
}

function operationsIn(
  root: string,
  checker: ts.TypeChecker,
  units: ReadonlySet<CodeUnit>,
): ReachableOperation[] {
  const found = new Map<string, { service: string; operation: string; sites: Set<string> }>();
  const visit = (node: ts.Node, unit: CodeUnit): void => {
    // A member (a method, a function property) or a local function is counted only if it is
    // reachable itself.
    if (node !== unit && isUnitOfItsOwn(node)) return;
    if (ts.isNewExpression(node)) {
      const op = operationOf(checker, node.expression);
      if (op !== undefined) {
        const key = `${op.service}:${op.operation}`;
        const entry = found.get(key) ?? { ...op, sites: new Set<string>() };
        entry.sites.add(siteOf(root, node));
        found.set(key, entry);
      }
    }
    ts.forEachChild(node, (child) => visit(child, unit));
  };
  for (const unit of units) visit(unit, unit);
  return [...found.values()]
    .map(({ service, operation, sites }) => ({
      service,
      operation,
      action: iamActionOf(service, operation),
      sites: [...sites].sort(),
    }))
    .sort((a, b) => a.action.localeCompare(b.action));
}

/** The handler ids: the files of `lambdas/` (`lock-job` for `lambdas/lock-job.ts`). */
export function handlerIds(root: string): string[] {
  return readdirSync(join(root, 'lambdas'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

/**
 * The AWS operations each handler of `root` (the repository) can make.
 * @throws Error when an AWS SDK package's command has no known service, or an operation has no IAM mapping
 */
export function reachableOperations(root: string): Record<string, ReachableOperation[]> {
  const ids = handlerIds(root);
  const program = handlersProgram(
    root,
    ids.map((id) => join(root, 'lambdas', `${id}.ts`)),
  );
  return Object.fromEntries(
    ids.map((id) => {
      const { units, checker } = reachableCode(program, join(root, 'lambdas', `${id}.ts`));
      return [id, operationsIn(root, checker, units)];
    }),
  );
}
