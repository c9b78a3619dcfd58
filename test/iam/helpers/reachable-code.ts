/**
 * Which code of the project a handler's bundle can run, found with the TypeScript compiler's
 * symbols rather than a hand list: starting from every top-level statement of
 * `lambdas/<handler>.ts`, each identifier used in a value position is resolved to its declaration
 * (through imports and re-exports), and the top-level statement declaring it is reachable in turn.
 * A class's method is reachable once reachable code calls it: on the class itself, or on an
 * interface the class satisfies (`lock.release(…)` on a `JobLock` reaches the `release` of every
 * reachable class assignable to `JobLock`: the stores are used through their interfaces), or, when
 * the compiler cannot type the receiver, by name alone. A dynamic `import('./x')` makes all of `x`
 * reachable (the stores are loaded that way). A branch decided by a handler's own literal options
 * (`stepHandler(fn, { nomad: true })` reaching `if (options.nomad === true)`) is taken or not as
 * those options say (foldedBranch).
 *
 * It over-approximates on purpose (a branch a configuration never takes is still reachable): the
 * IAM check must see every call the code CAN make (reachable-operations.ts).
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** A unit of code: a top-level statement, or one member of a top-level class. */
export type CodeUnit = ts.Node;

/** The reachable code of one entry file, and a checker to resolve what it references. */
export interface ReachableCode {
  readonly units: ReadonlySet<CodeUnit>;
  readonly checker: ts.TypeChecker;
}

/** A compiled view of the project's handlers, shared by every entry. */
export function handlersProgram(root: string, entries: readonly string[]): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`Cannot read ${root}/tsconfig.json`);
  return ts.createProgram({ rootNames: [...entries], options: parsed.options });
}

const isProjectFile = (file: ts.SourceFile) =>
  !file.isDeclarationFile && !file.fileName.includes('/node_modules/');

/** The unit a declaration belongs to (its top-level statement, or its top-level class's member). */
function unitOf(node: ts.Node): CodeUnit | undefined {
  let current: ts.Node = node;
  while (current.parent !== undefined && !ts.isSourceFile(current.parent)) {
    if (ts.isClassLike(current.parent) && ts.isSourceFile(current.parent.parent)) {
      return isMethodLike(current) ? current : current.parent;
    }
    current = current.parent;
  }
  return ts.isSourceFile(current) ? undefined : current;
}

const isMethodLike = (member: ts.Node): member is ts.MethodDeclaration | ts.AccessorDeclaration =>
  ts.isMethodDeclaration(member) ||
  ts.isGetAccessorDeclaration(member) ||
  ts.isSetAccessorDeclaration(member);

/** What holds members reached by name: a top-level class, or an object literal. */
type Holder = ts.ClassLikeDeclaration | ts.ObjectLiteralExpression;

/**
 * Whether `node` is code of its own, run only once called: a method of a top-level class, or a
 * method or function-valued property of an object literal (`{ take: (input) => … }`).
 */
export function isMemberUnit(node: ts.Node): boolean {
  if (isMethodLike(node))
    return ts.isClassLike(node.parent)
      ? ts.isSourceFile(node.parent.parent)
      : ts.isObjectLiteralExpression(node.parent);
  return (
    ts.isPropertyAssignment(node) &&
    ts.isObjectLiteralExpression(node.parent) &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  );
}

/**
 * Whether `node` is a function kept in a local constant (`const loadPlan = (key) => …` inside a
 * factory): its body runs only once something calls it, not when the enclosing function runs.
 */
function isLocalFunction(node: ts.Node): node is ts.VariableDeclaration {
  return (
    ts.isVariableDeclaration(node) &&
    node.initializer !== undefined &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) &&
    !ts.isSourceFile(node.parent.parent.parent)
  );
}

/** Whether `node` is code reached on its own (a member, a local function), not with its enclosing unit. */
export function isUnitOfItsOwn(node: ts.Node): boolean {
  return isMemberUnit(node) || isLocalFunction(node);
}

const memberName = (member: { readonly name?: ts.Node }): string | undefined => {
  const name = member.name;
  return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
};

/** A top-level statement that runs when its file loads whether or not anything names it. */
const runsOnLoad = (statement: ts.Statement) =>
  !ts.isImportDeclaration(statement) &&
  !ts.isExportDeclaration(statement) &&
  !ts.isFunctionDeclaration(statement) &&
  !ts.isClassDeclaration(statement) &&
  !ts.isVariableStatement(statement) &&
  !ts.isInterfaceDeclaration(statement) &&
  !ts.isTypeAliasDeclaration(statement) &&
  !ts.isEnumDeclaration(statement) &&
  !ts.isModuleDeclaration(statement);

/** Nodes that are types only (never run): skipped so a type annotation reaches no class. */
function isTypeOnly(node: ts.Node): boolean {
  return (
    ts.isTypeNode(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly === true) ||
    (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword)
  );
}

/** The project file `specifier` names from `from`, if it is one. */
function projectModule(
  program: ts.Program,
  from: ts.SourceFile,
  specifier: string,
): ts.SourceFile | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from.fileName), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    const file = program.getSourceFile(candidate);
    if (file !== undefined) return file;
  }
  throw new Error(`${from.fileName}: cannot resolve import('${specifier}')`);
}

/**
 * Whether `statement` is `if (<param>.<flag> === true | !== false | !== undefined)` in a function
 * whose every call in `entry` passes an object literal there that makes it false: the then-branch
 * cannot run for this handler.
 */
function foldedAway(checker: ts.TypeChecker, entry: ts.SourceFile, statement: ts.IfStatement): boolean {
  const condition = statement.expression;
  if (!ts.isBinaryExpression(condition) || !ts.isPropertyAccessExpression(condition.left)) return false;
  const { expression: target, name } = condition.left;
  const declaration = ts.isIdentifier(target)
    ? checker.getSymbolAtLocation(target)?.valueDeclaration
    : undefined;
  if (declaration === undefined || !ts.isParameter(declaration)) return false;
  const fn = declaration.parent;
  const position = fn.parameters.indexOf(declaration);
  const fnSymbol =
    fn.name !== undefined && ts.isIdentifier(fn.name) ? checker.getSymbolAtLocation(fn.name) : undefined;
  const holds = (given: ts.Expression | undefined): boolean | undefined => {
    const op = condition.operatorToken.kind;
    const value = condition.right.getText();
    const text = given?.getText();
    if (op === ts.SyntaxKind.EqualsEqualsEqualsToken && value === 'true') return text === 'true';
    if (op === ts.SyntaxKind.ExclamationEqualsEqualsToken && value === 'false') return text !== 'false';
    if (op === ts.SyntaxKind.ExclamationEqualsEqualsToken && value === 'undefined')
      return given !== undefined;
    return undefined;
  };
  const verdicts: (boolean | undefined)[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && fnSymbol !== undefined) {
      let callee = checker.getSymbolAtLocation(node.expression);
      if (callee !== undefined && (callee.flags & ts.SymbolFlags.Alias) !== 0)
        callee = checker.getAliasedSymbol(callee);
      if (callee === fnSymbol) {
        const argument = node.arguments[position];
        if (argument === undefined) verdicts.push(holds(undefined));
        else if (!ts.isObjectLiteralExpression(argument)) verdicts.push(undefined);
        else {
          const property = argument.properties.find((p) => p.name?.getText() === name.text);
          verdicts.push(
            property === undefined
              ? holds(undefined)
              : ts.isPropertyAssignment(property)
                ? holds(property.initializer)
                : undefined,
          );
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(entry);
  return verdicts.length > 0 && verdicts.every((v) => v === false);
}

/** Every unit of code `entry` (a file of `program`) can run. */
export function reachableCode(program: ts.Program, entry: string): ReachableCode {
  const checker = program.getTypeChecker();
  const entryFile = program.getSourceFile(entry);
  if (entryFile === undefined) throw new Error(`${entry} is not in the program`);
  const units = new Set<CodeUnit>();
  const holders: Holder[] = [];
  // Calls whose receiver is an interface, or not typed: each reaches the matching members of the
  // holders met so far and of those met later.
  const calls: { name: string; on: ts.Type | undefined }[] = [];
  const work: CodeUnit[] = [];
  const files = new Set<ts.SourceFile>();
  // `{ loadPlan }` returns a local function as a member: it is reached as that member is.
  const memberOf = (holder: Holder, name: string): CodeUnit | undefined => {
    for (const m of ts.isObjectLiteralExpression(holder) ? holder.properties : holder.members) {
      if (memberName(m) !== name) continue;
      if (isMemberUnit(m)) return m;
      const value = ts.isShorthandPropertyAssignment(m)
        ? checker.getShorthandAssignmentValueSymbol(m)?.valueDeclaration
        : undefined;
      if (value !== undefined && isLocalFunction(value)) return value;
    }
    return undefined;
  };
  const satisfies = (holder: Holder, on: ts.Type | undefined) => {
    if (on === undefined) return true;
    if (ts.isObjectLiteralExpression(holder))
      return checker.isTypeAssignableTo(checker.getTypeAtLocation(holder), on);
    const symbol = holder.name === undefined ? undefined : checker.getSymbolAtLocation(holder.name);
    return symbol === undefined || checker.isTypeAssignableTo(checker.getDeclaredTypeOfSymbol(symbol), on);
  };
  const hold = (holder: Holder) => {
    if (holders.includes(holder)) return;
    holders.push(holder);
    for (const call of calls) if (satisfies(holder, call.on)) reach(memberOf(holder, call.name));
  };
  const reach = (unit: CodeUnit | undefined) => {
    if (unit === undefined || units.has(unit)) return;
    units.add(unit);
    work.push(unit);
    // Loading a file runs its top-level code (an expression statement reached by no name).
    const file = unit.getSourceFile();
    if (!files.has(file)) {
      files.add(file);
      for (const statement of file.statements) if (runsOnLoad(statement)) reach(statement);
    }
    if (ts.isClassLike(unit)) hold(unit);
  };
  const called = (name: string, on: ts.Type | undefined) => {
    if (calls.some((c) => c.name === name && c.on === on)) return;
    calls.push({ name, on });
    for (const holder of holders) if (satisfies(holder, on)) reach(memberOf(holder, name));
  };
  /** The type a receiver must have, or `undefined` when the compiler could not type it. */
  const receiverType = (receiver: ts.Expression): ts.Type | undefined => {
    const type = checker.getTypeAtLocation(receiver);
    return (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0 ? undefined : type;
  };
  const resolved = (node: ts.Node): ts.Symbol | undefined => {
    const symbol = checker.getSymbolAtLocation(node);
    return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0
      ? checker.getAliasedSymbol(symbol)
      : symbol;
  };
  /**
   * A property read `x.name`: the class method itself, or every satisfying class's. A property
   * declared by no class or interface (one of a type literal or a mapped type, such as a batch
   * journal's `outcomes[id]?.status`) reaches the members of that name that fit `x`'s type: by
   * name alone only when `x` is `any` (an outcome's `status` is not the run-status reader's).
   */
  const readProperty = (name: ts.Identifier | ts.PrivateIdentifier, receiver: ts.Expression) => {
    const declarations = resolved(name)?.declarations ?? [];
    if (declarations.length === 0) return called(name.text, receiverType(receiver));
    for (const declaration of declarations) {
      const owner = declaration.parent;
      if (!isProjectFile(declaration.getSourceFile())) continue;
      if (isMemberUnit(declaration)) reach(declaration);
      else if (ts.isClassLike(owner)) reach(unitOf(declaration));
      else if (ts.isInterfaceDeclaration(owner) && owner.name !== undefined) {
        const symbol = checker.getSymbolAtLocation(owner.name);
        called(name.text, symbol === undefined ? undefined : checker.getDeclaredTypeOfSymbol(symbol));
      } else called(name.text, receiverType(receiver));
    }
  };
  const visit = (node: ts.Node, unit: CodeUnit, file: ts.SourceFile): void => {
    if (isTypeOnly(node)) return;
    // Members are units of their own, reached when called.
    if (node !== unit && isUnitOfItsOwn(node)) return;
    if (ts.isObjectLiteralExpression(node)) hold(node);
    if (ts.isIfStatement(node) && foldedAway(checker, entryFile, node)) {
      if (node.elseStatement !== undefined) visit(node.elseStatement, unit, file);
      return;
    }
    if (ts.isIdentifier(node)) {
      for (const declaration of resolved(node)?.declarations ?? []) {
        if (!isProjectFile(declaration.getSourceFile())) continue;
        if (isLocalFunction(declaration)) reach(declaration);
        else if (!isMemberUnit(declaration)) reach(unitOf(declaration));
      }
    }
    if (ts.isPropertyAccessExpression(node)) readProperty(node.name, node.expression);
    // `const { take } = steps` reads `take` as surely as `steps.take` does.
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = memberName({ name: node.propertyName ?? node.name });
      if (name !== undefined) called(name, undefined);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier !== undefined && ts.isStringLiteralLike(specifier)) {
        const module = projectModule(program, file, specifier.text);
        if (module !== undefined) for (const statement of module.statements) reach(statement);
      }
    }
    ts.forEachChild(node, (child) => visit(child, unit, file));
  };
  for (const statement of entryFile.statements) reach(statement);
  for (let unit = work.pop(); unit !== undefined; unit = work.pop()) visit(unit, unit, unit.getSourceFile());
  return { units, checker };
}
