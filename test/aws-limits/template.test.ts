/**
 * The synthesized template read for what AWS would refuse or break on (issue #19), every check
 * derived from the template itself rather than restating the constants that made it: task
 * timeouts against their functions' timeouts, the continue-as-new hand-over, who may list the
 * plan bucket, KMS grants for customer-managed secret keys, Nomad's address, the log group name,
 * and secrets given by name.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackContextError, stackPropsFromContext } from '../../lib/constructs/stack-context';
import { extractStateMachineDefinition } from '../../lib/engines/local';
import { functionNameOf } from '../../lib/engines/local/private/placeholders';
import { type SynthesizedStack, synthesizeStack } from './helpers/synthesized-stack';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const ADDRESS = 'https://nomad.example.internal:4646';

type Resource = { Type: string; Properties: Record<string, unknown> };
type State = Record<string, unknown> & { Type: string };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

const resourcesOf = (s: SynthesizedStack) => s.template['Resources'] as Record<string, Resource>;
const statesOf = (s: SynthesizedStack) => s.stateMachine.definition['States'] as Record<string, State>;
const actionsOf = (st: Statement) => [st.Action].flat();

/** Every IAM policy's statements, by the role it is attached to. */
function statementsByRole(s: SynthesizedStack): Map<string, Statement[]> {
  const byRole = new Map<string, Statement[]>();
  for (const resource of Object.values(resourcesOf(s))) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const statements = (resource.Properties['PolicyDocument'] as { Statement: Statement[] }).Statement;
    for (const role of resource.Properties['Roles'] as Array<{ Ref: string }>) {
      byRole.set(role.Ref, [...(byRole.get(role.Ref) ?? []), ...statements]);
    }
  }
  return byRole;
}

let stack: SynthesizedStack;
beforeAll(() => {
  stack = synthesizeStack({
    env: { account: '123456789012', region: 'eu-west-1' },
    nomadTokenSecret: { name: 'nomad-token' },
    nomadTlsSecret: { partialArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-tls' },
    nomadSecretsKmsKeyArn: KEY_ARN,
  });
});

describe('the synthesized template', () => {
  it('1. gives every Lambda task a timeout longer than its own function’s', () => {
    // Arrange
    const resources = resourcesOf(stack);
    // A task either is the function (payloadResponseOnly) or invokes it by FunctionName.
    const functionOf = (state: State) =>
      functionNameOf(String(state['Resource'])) ??
      functionNameOf(
        String((state['Parameters'] as Record<string, unknown> | undefined)?.['FunctionName'] ?? ''),
      );
    // The one-job state machine's tasks and the fleet's ("Plan fleet", "Summarize fleet").
    const fleet = extractStateMachineDefinition(stack.template, { logicalIdPrefix: 'FleetStateMachine' });
    const lambdaTasks = [
      ...Object.entries(statesOf(stack)),
      ...Object.entries(fleet.definition['States'] as Record<string, State>),
    ].filter(([, state]) => state.Type === 'Task' && functionOf(state) !== undefined);

    // Act
    const pairs = lambdaTasks.map(([name, state]) => ({
      name,
      task: Number(state['TimeoutSeconds']),
      function: Number(resources[functionOf(state) ?? '']?.Properties['Timeout'] ?? 3),
    }));

    // Assert
    expect(pairs.length).toBeGreaterThanOrEqual(12);
    expect(pairs.map((p) => p.name)).toEqual(expect.arrayContaining(['Plan fleet', 'Summarize fleet']));
    expect(pairs.filter((p) => !(p.task > p.function))).toEqual([]);
  });

  it('2. names the continue-as-new hand-over, retries the running-execution limit, and takes "already exists" as done', () => {
    // Arrange
    const [, task] =
      Object.entries(statesOf(stack)).find(([, s]) =>
        String(s['Resource']).includes(':states:startExecution'),
      ) ?? [];

    // Act
    const retried = ((task?.['Retry'] ?? []) as Array<{ ErrorEquals: string[] }>).flatMap(
      (r) => r.ErrorEquals,
    );
    const catches = (task?.['Catch'] ?? []) as Array<{ ErrorEquals: string[]; Next: string }>;
    const alreadyExists = catches.find((c) =>
      c.ErrorEquals.includes('StepFunctions.ExecutionAlreadyExistsException'),
    );

    // Assert
    expect(((task?.['Parameters'] ?? {}) as Record<string, unknown>)['Name.$']).toMatch(
      /^States\.Format\('\{\}-\{\}', \$\.run\.continuationPrefix, States\.MathAdd\(\$\.run\.executionNumber, 1\)\)$/,
    );
    expect(retried).toContain('StepFunctions.ExecutionLimitExceededException');
    expect(statesOf(stack)[alreadyExists?.Next ?? '']?.Type).toBe('Succeed');
  });

  it('5. lets every role that reads the plan bucket list it (a missing key is NoSuchKey, not AccessDenied)', () => {
    // Act
    const readersWithoutList = [...statementsByRole(stack)].filter(
      ([, statements]) =>
        statements.some((st) => actionsOf(st).includes('s3:GetObject')) &&
        !statements.some((st) => actionsOf(st).includes('s3:ListBucket')),
    );

    // Assert
    expect(readersWithoutList.map(([role]) => role)).toEqual([]);
  });

  it('6. lets every role that reads a secret decrypt with the given key, and that key only', () => {
    // Act
    const byRole = [...statementsByRole(stack)].filter(([, statements]) =>
      statements.some((st) => actionsOf(st).includes('secretsmanager:GetSecretValue')),
    );
    const kmsResources = byRole.map(([, statements]) =>
      statements.filter((st) => actionsOf(st).some((a) => a.startsWith('kms:'))).map((st) => st.Resource),
    );

    // Assert
    expect(byRole.length).toBeGreaterThanOrEqual(6);
    expect(kmsResources.every((resources) => JSON.stringify(resources) === JSON.stringify([KEY_ARN]))).toBe(
      true,
    );
  });

  it('7. gives every function Nomad’s address as given', () => {
    // Act
    const addresses = Object.values(resourcesOf(stack)).flatMap((r) => {
      const env = (r.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      return r.Type === 'AWS::Lambda::Function' && env?.['NOMAD_ADDR'] !== undefined
        ? [env['NOMAD_ADDR']]
        : [];
    });

    // Assert
    expect(addresses.length).toBeGreaterThanOrEqual(6);
    expect(new Set(addresses)).toEqual(new Set([ADDRESS]));
  });

  it('8. logs the state machine under /aws/vendedlogs/states/, in a group named for this creation of the stack', () => {
    // Arrange
    const resources = resourcesOf(stack);
    const [machine] = Object.values(resources).filter((r) => r.Type === 'AWS::StepFunctions::StateMachine');

    // Act
    const destination = JSON.stringify(machine?.Properties['LoggingConfiguration']);
    const [logicalId] =
      /"(StateMachineLogs[A-Za-z0-9]*|Restart[A-Za-z0-9]*Logs[A-Za-z0-9]*)"/.exec(destination) ?? [];
    const name = resources[logicalId?.replaceAll('"', '') ?? '']?.Properties['LogGroupName'];

    // Assert: a retained group outlives `cdk destroy`; a name of its own per creation of the
    // stack (its id's UUID) lets the stack be deployed again.
    expect(name).toEqual({
      'Fn::Join': [
        '-',
        [
          expect.stringMatching(/^\/aws\/vendedlogs\/states\/.+/),
          {
            'Fn::Select': [
              0,
              { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
            ],
          },
        ],
      ],
    });
  });

  it('10. lets only the Lock job and stale-lock roles describe executions, only this state machine’s, and the fleet’s role its jobs’ and its own', () => {
    // Act
    const describers = [...statementsByRole(stack)].flatMap(([role, statements]) =>
      statements
        .filter((st) => actionsOf(st).includes('states:DescribeExecution'))
        .map((st) => ({ role, resource: JSON.stringify(st.Resource) })),
    );

    const handlers = describers.filter((d) => !d.role.startsWith('FleetStateMachine'));
    const fleet = describers.filter((d) => d.role.startsWith('FleetStateMachine'));

    // Assert
    expect(handlers.map((d) => d.role).sort()).toEqual([
      expect.stringMatching(/lockjob/i),
      expect.stringMatching(/releasestalelock/i),
    ]);
    for (const d of handlers) expect(d.resource).toMatch(/:execution:NomadRestart-Restart:\*/);
    // The fleet's role: its jobs' executions (`.sync`, and the executions a job continued in, read
    // by the item's SDK task), its Map Run's items and its own (the Map).
    const nameOf = (machine: string) =>
      new RegExp(`:execution:",\\{"Fn::Select":\\[6,\\{"Fn::Split":\\[":",\\{"Ref":"${machine}[0-9A-F]{8}"`);
    expect(fleet.map((d) => d.resource).sort()).toEqual([
      expect.stringMatching(nameOf('FleetStateMachine')),
      expect.stringMatching(nameOf('RestartStateMachine')),
      expect.stringMatching(
        /:execution:",\{"Fn::Select":\[6,\{"Fn::Split":\[":",\{"Ref":"RestartStateMachine[0-9A-F]{8}"\}\]\}\]\},":\*"/,
      ),
      expect.stringMatching(/:execution:NomadRestart-Fleet\/\*"/),
    ]);
  });

  it('12. lets plan documents expire only when tagged as an ended run’s, and lets the functions that end runs tag them', () => {
    // Arrange
    const resources = Object.values(resourcesOf(stack));
    const [bucket] = resources.filter((r) => r.Type === 'AWS::S3::Bucket');
    const lifecycle = bucket?.Properties['LifecycleConfiguration'] as
      | { Rules: Array<Record<string, unknown>> }
      | undefined;
    const rules = lifecycle?.Rules ?? [];

    // Act
    const expiring = rules.filter((r) => r['ExpirationInDays'] !== undefined);
    const taggers = [...statementsByRole(stack)].filter(([, statements]) =>
      statements.some((st) => actionsOf(st).includes('s3:PutObjectTagging')),
    );

    // Assert
    expect(expiring.length).toBeGreaterThan(0);
    expect(
      expiring.every(
        (r) =>
          JSON.stringify(r['TagFilters']) === JSON.stringify([{ Key: 'nomad-restart-run', Value: 'ended' }]),
      ),
    ).toBe(true);
    expect(taggers.map(([role]) => role).sort()).toEqual([
      expect.stringMatching(/summarizefleet/i),
      expect.stringMatching(/releaselock/i),
      expect.stringMatching(/releasestalelock/i),
    ]);
  });

  it('9. grants a secret given by name or partial ARN whatever suffix Secrets Manager added', () => {
    // Act
    const secretResources = [...statementsByRole(stack)].flatMap(([, statements]) =>
      statements
        .filter((st) => actionsOf(st).includes('secretsmanager:GetSecretValue'))
        .map((st) => JSON.stringify(st.Resource)),
    );

    // Assert
    expect(secretResources.some((r) => r.includes('secret:nomad-token-??????'))).toBe(true);
    expect(secretResources.some((r) => r.includes('secret:nomad-tls-??????'))).toBe(true);
  });
});

describe('the app’s context', () => {
  const context = (values: Record<string, string>) => (key: string) => values[key];

  it.each([
    { name: 'no nomadAddress', values: {}, expected: 'Context "nomadAddress" is required' },
    {
      name: 'a loopback nomadAddress',
      values: { nomadAddress: 'http://127.0.0.1:4646' },
      expected: 'a loopback address',
    },
    { name: 'localhost', values: { nomadAddress: 'http://localhost:4646' }, expected: 'a loopback address' },
    {
      name: 'a secret that is neither a name nor an ARN',
      values: { nomadAddress: ADDRESS, nomadTokenSecretArn: 'arn:aws:s3:::bucket' },
      expected:
        'Context "nomadTokenSecretArn" is "arn:aws:s3:::bucket", neither a Secrets Manager ARN nor a secret name',
    },
    {
      name: 'an unknown variablesLock mode',
      values: { nomadAddress: ADDRESS, variablesLock: 'maybe' },
      expected: 'Context "variablesLock" is "maybe": expected "on", "required" or "off"',
    },
  ])('refuses $name with a message naming the setting and an example', ({ values, expected }) => {
    // Act
    const reading = () => stackPropsFromContext(context(values));

    // Assert
    expect(reading).toThrow(StackContextError);
    expect(reading).toThrow(expected);
    expect(reading).toThrow(/e\.g\. -c /);
  });

  it.each([
    { value: 'nomad-token', expected: { name: 'nomad-token' } },
    {
      value: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-token',
      expected: { partialArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-token' },
    },
    {
      value: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-token-AbCdEf',
      expected: { completeArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:nomad-token-AbCdEf' },
    },
  ])('takes the secret $value', ({ value, expected }) => {
    // Act
    const props = stackPropsFromContext(context({ nomadAddress: ADDRESS, nomadTokenSecretArn: value }));

    // Assert
    expect(props.nomadTokenSecret).toEqual(expected);
  });

  it('takes the shared lock’s mode, and leaves the default (on) when it is not given', () => {
    // Act
    const required = stackPropsFromContext(context({ nomadAddress: ADDRESS, variablesLock: 'required' }));
    const unset = stackPropsFromContext(context({ nomadAddress: ADDRESS }));

    // Assert
    expect(required.variablesLock).toBe('required');
    expect(unset).not.toHaveProperty('variablesLock');
  });

  it('makes `cdk synth` without nomadAddress exit non-zero, naming it', () => {
    // Act
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'bin', 'app.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          CDK_OUTDIR: join(ROOT, '.nomad-restart', 'no-address-synth'),
          CDK_CONTEXT_JSON: '{}',
        },
        encoding: 'utf8',
      },
    );

    // Assert
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Context "nomadAddress" is required');
  });
});

describe('the local engine’s view of the template', () => {
  it('reads every function’s own timeout, which bounds each local invocation', () => {
    // Arrange
    const functions = Object.entries(resourcesOf(stack)).filter(
      ([, r]) => r.Type === 'AWS::Lambda::Function',
    );

    // Act
    const read = stack.stateMachine.functionTimeoutsMs;

    // Assert
    expect(functions.length).toBeGreaterThanOrEqual(10);
    for (const [logicalId, resource] of functions) {
      expect(read[logicalId]).toBe(Number(resource.Properties['Timeout'] ?? 3) * 1000);
    }
  });
});
