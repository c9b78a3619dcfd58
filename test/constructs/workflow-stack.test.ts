// Scenario: the stack `npx cdk synth` deploys, synthesized once, checked three ways: targeted
// template assertions (resources, IAM, lock writes, bucket), the rendered ASL (states,
// transitions, Retry/Catch on every Task), cdk-nag AwsSolutions, and asl-validator.
import { createRequire } from 'node:module';
import type { App } from 'aws-cdk-lib';
import { Capture, Match, type Template } from 'aws-cdk-lib/assertions';
import { ASK_STATE_NAME, FailStates, FlowStates, TASK_STATE_HANDLERS, TaskStates } from '../../lib/workflow';
import { FLEET_HANDLER_IDS } from '../../lib/workflow/fleet-state-names';
import { HANDLER_IDS } from '../../lib/workflow/state-names';
import { expectWatchedDeadLetterQueue, queueArn, queueIdOf } from './helpers/dead-letters';
import { awsSolutionsFindings } from './helpers/nag';
import { extractAsl, synthStack, TLS_SECRET_ARN, TOKEN_SECRET_ARN } from './helpers/synth';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

type AslState = Record<string, unknown> & { Type: string };
type Validator = (
  definition: unknown,
  options?: { checkArn?: boolean; checkPaths?: boolean },
) => {
  isValid: boolean;
  errorsText: (separator?: string) => string;
};
const aslValidator = createRequire(import.meta.url)('asl-validator') as Validator;

let app: App;
let template: Template;
let states: Record<string, AslState>;
let asl: Record<string, unknown>;

beforeAll(() => {
  ({ app, template } = synthStack());
  asl = extractAsl(template);
  states = asl['States'] as Record<string, AslState>;
});

const statesOfType = (type: string) => Object.entries(states).filter(([, s]) => s.Type === type);

describe('NomadRestartStack', () => {
  describe('resources', () => {
    it('creates two Standard state machines, the one-job one and the fleet’s, with tracing and logging of all events but no data', () => {
      // Arrange
      const type = 'AWS::StepFunctions::StateMachine';

      // Act
      const machines = Object.keys(template.findResources(type));

      // Assert
      expect(machines.map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
        'RestartStateMachine',
        'FleetStateMachine',
      ]);
      template.allResourcesProperties(type, {
        StateMachineType: 'STANDARD',
        TracingConfiguration: { Enabled: true },
        LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: false }),
      });
    });

    it('creates one ARM64 Node.js 24 function per handler, traced, with its own log group', () => {
      // Arrange
      const expected = HANDLER_IDS.length + 1 + FLEET_HANDLER_IDS.length + 1; // + release-stale-lock, end-fleet-record

      // Act
      const functions = template.findResources('AWS::Lambda::Function');

      // Assert
      expect(Object.keys(functions)).toHaveLength(expected);
      template.allResourcesProperties('AWS::Lambda::Function', {
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: Match.objectLike({ LogGroup: Match.anyValue() }),
      });
      template.resourceCountIs('AWS::Logs::LogGroup', expected + 2); // + each state machine's
      template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    });

    it('creates the lock and approvals tables with TTL and point-in-time recovery', () => {
      // Arrange
      const type = 'AWS::DynamoDB::Table';

      // Act
      const tables = template.findResources(type);

      // Assert
      expect(Object.keys(tables)).toHaveLength(2);
      template.hasResourceProperties(type, {
        KeySchema: [{ AttributeName: 'lockKey', KeyType: 'HASH' }],
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'owner-index' })],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      });
      template.hasResourceProperties(type, {
        KeySchema: [{ AttributeName: 'approvalId', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          Match.objectLike({ IndexName: 'execution-index' }),
          // Pending questions per state machine, for `questions`: the task token is not projected.
          Match.objectLike({
            IndexName: 'pending-index',
            KeySchema: [
              { AttributeName: 'stateMachineArn', KeyType: 'HASH' },
              { AttributeName: 'createdAt', KeyType: 'RANGE' },
            ],
            Projection: {
              ProjectionType: 'INCLUDE',
              NonKeyAttributes: Match.not(Match.arrayWith(['taskToken'])),
            },
          }),
        ],
      });
    });

    it('makes the plan bucket private, encrypted and expiring, and enforces TLS', () => {
      // Arrange
      const bucketType = 'AWS::S3::Bucket';

      // Act
      const policy = new Capture();

      // Assert
      template.hasResourceProperties(bucketType, {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: { ServerSideEncryptionConfiguration: [Match.objectLike({})] },
        // Only an ended run's documents expire (#19 item 12).
        LifecycleConfiguration: {
          Rules: Match.arrayWith([
            Match.objectLike({
              ExpirationInDays: 14,
              Status: 'Enabled',
              TagFilters: [{ Key: 'nomad-restart-run', Value: 'ended' }],
            }),
          ]),
        },
      });
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        PolicyDocument: { Statement: Match.arrayWith([policy]) },
      });
      expect(policy.asObject()).toMatchObject({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
    });

    it('releases stale locks on FAILED, TIMED_OUT and ABORTED executions', () => {
      // Arrange
      const type = 'AWS::Events::Rule';

      // Act: the one-job state machine's rule (the fleet's has its own, test/constructs/fleet-stack.test.ts).
      const rules = template.findResources(type, {
        Properties: {
          EventPattern: Match.objectLike({
            source: ['aws.states'],
            'detail-type': ['Step Functions Execution Status Change'],
            detail: {
              status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
              stateMachineArn: [{ Ref: Match.stringLikeRegexp('^RestartStateMachine') }],
            },
          }),
        },
      });

      // Assert
      expect(Object.keys(rules)).toHaveLength(1);
      expect(JSON.stringify(rules)).toMatch(/"Restartreleasestalelockfn/);
    });

    it('sends a dead execution’s end it could not deliver or handle to a watched dead-letter queue', () => {
      // Arrange
      const [, rule] =
        Object.entries(template.findResources('AWS::Events::Rule')).find(([id]) =>
          id.startsWith('RestartReleaseStaleLock'),
        ) ?? [];
      const target = rule?.['Properties']['Targets'][0];
      const queueId = queueIdOf(target['DeadLetterConfig']['Arn']);

      // Act
      const asyncConfigs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')).map(
        (c) => c['Properties'],
      );

      // Assert
      expect(target['RetryPolicy']).toEqual({ MaximumEventAgeInSeconds: 7200, MaximumRetryAttempts: 8 });
      expectWatchedDeadLetterQueue(template, queueId);
      // The fleet's end-fleet-record is the other function EventBridge invokes (fleet-stack.test.ts).
      expect(asyncConfigs).toHaveLength(2);
      expect(asyncConfigs).toContainEqual({
        FunctionName: { Ref: expect.stringMatching(/^Restartreleasestalelockfn/) },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: queueArn(queueId) } },
      });
    });

    it('exports the state machine ARN and the input JSON Schema', () => {
      // Arrange
      const outputs = template.findOutputs('*');

      // Act
      const schema = JSON.parse(String(outputs['InputJsonSchema']?.['Value'])) as { properties: object };

      // Assert
      expect(JSON.stringify(outputs['StateMachineArn']?.['Value'])).toMatch(
        /^\{"Ref":"RestartStateMachine[0-9A-F]+"\}$/,
      );
      expect(Object.keys(schema.properties)).toEqual(
        expect.arrayContaining(['job', 'batchSize', 'batchWait', 'onError']),
      );
    });

    it('exports the approvals and lock table names that -engine=aws reads', () => {
      // Act
      const outputs = template.findOutputs('*');

      // Assert
      expect(JSON.stringify(outputs['ApprovalsTableName']?.['Value'])).toMatch(
        /^\{"Ref":"RestartApprovalsTable[0-9A-F]+"\}$/,
      );
      expect(outputs['ApprovalsTableName']?.['Description']).toContain('NOMAD_RESTART_APPROVALS_TABLE');
      expect(JSON.stringify(outputs['LockTableName']?.['Value'])).toMatch(
        /^\{"Ref":"RestartLockTable[0-9A-F]+"\}$/,
      );
      expect(outputs['LockTableName']?.['Description']).toContain('NOMAD_RESTART_LOCK_TABLE');
    });
  });

  describe('the job’s shared lock', () => {
    const environmentOf = (handlerId: string) => {
      const functions = template.findResources('AWS::Lambda::Function');
      const [fn] = Object.entries(functions).filter(([id]) =>
        id.startsWith(`Restart${handlerId.replace(/-/g, '')}fn`),
      );
      return (fn?.[1] as { Properties: { Environment: { Variables: Record<string, unknown> } } } | undefined)
        ?.Properties.Environment.Variables;
    };

    // Taken, renewed at every safe point, after every await slice and before a wait, released.
    const HOLDERS = [
      'lockjob',
      'checkdeployments',
      'awaitbatch',
      'awaithealth',
      'decide',
      'releaselock',
      'releasestalelock',
    ];

    it.each(HOLDERS)(
      'gives %s Nomad’s address, its token and the lock’s mode (on by default)',
      (handlerId) => {
        // Act
        const environment = environmentOf(handlerId);

        // Assert
        expect(environment).toMatchObject({
          NOMAD_ADDR: 'https://nomad.internal:4646',
          NOMAD_TOKEN_SECRET_ARN: expect.anything(),
          NOMAD_RESTART_VARIABLES_LOCK: 'true',
        });
      },
    );

    it('leaves it to the lock holders: no other function reads the mode', () => {
      // Act
      const withMode = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, fn]) =>
        JSON.stringify(fn).includes('NOMAD_RESTART_VARIABLES_LOCK'),
      );

      // Assert
      expect(withMode).toHaveLength(HOLDERS.length);
    });
  });

  describe('IAM', () => {
    const statements = () =>
      Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
        (p) =>
          (p as { Properties: { PolicyDocument: { Statement: Array<Record<string, unknown>> } } }).Properties
            .PolicyDocument.Statement,
      );

    it('gives each function a role of its own that reaches only this stack’s resources and the given secrets', () => {
      // Arrange
      const resources = template.toJSON()['Resources'] as Record<
        string,
        { Type: string; Properties: Record<string, Json> }
      >;
      const fns = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
      const roleOf = (fn: { Properties: Record<string, Json> }) =>
        JSON.stringify(fn.Properties['Role']).match(/"([A-Za-z0-9]+)","Arn"/)?.[1];
      const policiesOf = (role: string) =>
        Object.values(resources).filter(
          (r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties['Roles']).includes(`"${role}"`),
        );
      const allowed = (fnId: string, action: string, resource: Json): boolean => {
        // cloudwatch:DescribeAlarms answers composite alarms only on "*" (-stop-on-alarm's readers).
        if (resource === '*') return action.startsWith('xray:') || action === 'cloudwatch:DescribeAlarms';
        const text = JSON.stringify(resource);
        if (typeof resource === 'string') return resource === TOKEN_SECRET_ARN || resource === TLS_SECRET_ARN;
        if (text.includes(':states:')) return text.includes(':execution:NomadRestartTest-Restart:*');
        const ids = [...text.matchAll(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)].map((m) => m[1] ?? '');
        if (action.startsWith('logs:'))
          return ids.every((id) => id.startsWith(`${fnId.replace(/Function[0-9A-F]{8}$/, '')}Logs`));
        return ids.length > 0 && ids.every((id) => id === 'AWS::Partition' || id in resources);
      };

      // Act
      const roles = fns.map(([, fn]) => roleOf(fn));
      const strays = fns.flatMap(([fnId, fn]) =>
        policiesOf(roleOf(fn) ?? '').flatMap((policy) =>
          ((policy.Properties['PolicyDocument'] as { Statement: Json[] }).Statement as Json[]).flatMap(
            (st) => {
              const statement = st as { Action: string | string[]; Resource: Json };
              return [statement.Action].flat().flatMap((action) =>
                [statement.Resource]
                  .flat()
                  .filter((r) => !allowed(fnId, action, r))
                  .map((r) => `${fnId}: ${action} on ${JSON.stringify(r)}`),
              );
            },
          ),
        ),
      );

      // Assert
      expect(fns.length).toBe(HANDLER_IDS.length + 1 + FLEET_HANDLER_IDS.length + 1);
      expect(new Set(roles).size).toBe(fns.length);
      expect(strays).toEqual([]);
    });

    it('grants no wildcard action', () => {
      // Arrange
      const all = statements();

      // Act
      const actions = all.flatMap((s) => [s['Action']].flat() as string[]);

      // Assert
      expect(actions.length).toBeGreaterThan(10);
      expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
    });

    it('uses Resource "*" only for X-Ray, log delivery and the alarm reads, which need it', () => {
      // Arrange
      const all = statements();

      // Act
      const starred = all.filter((s) => [s['Resource']].flat().includes('*'));
      const actions = new Set(starred.flatMap((s) => [s['Action']].flat() as string[]));

      // Assert
      expect(starred.length).toBeGreaterThan(0);
      for (const action of actions) expect(action).toMatch(/^(xray:|logs:|cloudwatch:DescribeAlarms$)/);
    });

    it('grants PutItem only to the lock, ask and fleet-plan steps, on their exact tables', () => {
      // Arrange
      const puts = statements().filter((s) => [s['Action']].flat().includes('dynamodb:PutItem'));

      // Act
      const resources = puts.map((s) => JSON.stringify(s['Resource']));

      // Assert
      expect(resources.every((r) => r.includes('LockTable') || r.includes('ApprovalsTable'))).toBe(true);
      // lock-job takes the lock, ask parks its question, plan-fleet writes its fleet's control item
      // (docs/run-control.md, A fleet); a lock refresh only updates (UpdateItem)
      expect(puts.length).toBe(3);
    });
  });

  describe('definition', () => {
    it('starts at the continuation check and validates input before anything else', () => {
      // Arrange
      const start = asl['StartAt'];

      // Act
      const choice = states[FlowStates.isContinuation] as unknown as {
        Choices: Array<{ Next: string }>;
        Default: string;
      };

      // Assert
      expect(start).toBe(FlowStates.isContinuation);
      expect(choice.Default).toBe(TaskStates.validateInput);
      expect(choice.Choices[0]?.Next).toBe(TaskStates.resumeRun);
    });

    it('routes a deployment check to its own validation, then one question and its answer', () => {
      // Arrange
      const choice = states[FlowStates.isContinuation] as unknown as { Choices: unknown[] };

      // Act
      const validate = states[TaskStates.validateDeploymentCheck] as unknown as Record<string, unknown>;
      const ask = states[TaskStates.askDeploymentCheck] as unknown as Record<string, unknown>;

      // Assert
      expect(choice.Choices[1]).toEqual({
        Variable: '$.deploymentCheck',
        IsPresent: true,
        Next: TaskStates.validateDeploymentCheck,
      });
      expect(validate['Next']).toBe(FlowStates.deploymentCheckReaches);
      expect(validate['Catch']).toContainEqual(
        expect.objectContaining({ ErrorEquals: ['InvalidInputError'], Next: FlowStates.readInputError }),
      );
      expect(JSON.stringify(ask['Resource'])).toContain('lambda:invoke.waitForTaskToken');
      expect(ask['Next']).toBe(FlowStates.deploymentCheckAnswered);
      expect(states[FlowStates.deploymentCheckAnswered]).toEqual({ Type: 'Succeed', OutputPath: '$.answer' });
    });

    it('reads the job a deployment check names through the plan function, its failure riding on to the question', () => {
      // Act
      const choice = states[FlowStates.deploymentCheckReaches] as unknown as Record<string, unknown>;
      const reach = states[TaskStates.reachDeploymentCheck] as unknown as Record<string, unknown>;

      // Assert
      expect(choice).toEqual({
        Type: 'Choice',
        Choices: [{ Variable: '$.reach', IsPresent: true, Next: TaskStates.reachDeploymentCheck }],
        Default: TaskStates.askDeploymentCheck,
      });
      expect(JSON.stringify(reach['Resource'])).toContain('Restartplanfn');
      expect(reach['Parameters']).toEqual({ deploymentCheck: true, 'reach.$': '$.reach' });
      expect(reach['ResultPath']).toBe('$.reached');
      expect(reach['Next']).toBe(TaskStates.askDeploymentCheck);
      expect(reach['Catch']).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: TaskStates.askDeploymentCheck },
      ]);
    });

    it('ends bad input in InvalidInput straight from validation, without lock or Nomad, showing only the message', () => {
      // Arrange
      const validate = states[TaskStates.validateInput] as unknown as {
        Catch: Array<{ ErrorEquals: string[]; Next: string }>;
      };

      // Act
      const first = validate.Catch[0];

      // Assert
      expect(first).toEqual({
        ErrorEquals: ['InvalidInputError'],
        ResultPath: '$.error',
        Next: FlowStates.readInputError,
      });
      // A Lambda error's cause is the runtime's JSON with a stack trace: the console shows its message.
      expect(states[FlowStates.readInputError]).toEqual({
        Type: 'Pass',
        Parameters: { 'Cause.$': 'States.StringToJson($.error.Cause)' },
        ResultPath: '$.error',
        Next: FailStates.invalidInput,
      });
      expect(states[FailStates.invalidInput]).toEqual({
        Type: 'Fail',
        Error: 'InvalidInput',
        CausePath: '$.error.Cause.errorMessage',
      });
    });

    it('has a Retry with backoff and jitter and a catch-all Catch on every Task', () => {
      // Arrange
      const tasks = statesOfType('Task');

      // Act
      const missing = tasks.filter(([, s]) => {
        const retry = s['Retry'] as Array<Record<string, unknown>> | undefined;
        const katch = s['Catch'] as Array<{ ErrorEquals: string[] }> | undefined;
        return (
          retry?.[0]?.['JitterStrategy'] !== 'FULL' ||
          !katch?.some((c) => c.ErrorEquals.includes('States.ALL'))
        );
      });

      // Assert
      expect(tasks.length).toBe(21);
      expect(missing.map(([name]) => name)).toEqual([]);
    });

    it('retries throttling and transient Nomad errors on Lambda tasks', () => {
      // Arrange
      const restart = states[TaskStates.restartBatch] as unknown as {
        Retry: Array<{ ErrorEquals: string[] }>;
      };

      // Act
      const errors = restart.Retry[0]?.ErrorEquals;

      // Assert
      expect(errors).toEqual(
        expect.arrayContaining([
          'Lambda.ServiceException',
          'Lambda.TooManyRequestsException',
          'NomadTransientError',
        ]),
      );
    });

    it('parks the question on a task token with a timeout that applies the default answer', () => {
      // Arrange
      const ask = states[ASK_STATE_NAME] as unknown as Record<string, unknown> & {
        Catch: Array<Record<string, unknown>>;
      };

      // Act
      const params = ask['Parameters'] as { Payload: Record<string, unknown> };

      // Assert
      expect(ask['Resource']).toBe('arn:aws:states:::lambda:invoke.waitForTaskToken');
      expect(params.Payload['taskToken.$']).toBe('$$.Task.Token');
      // 23 hours: the job's lock in Nomad, renewed just before the question, lives 24.
      expect(ask['TimeoutSeconds']).toBe(23 * 60 * 60);
      expect(ask.Catch[0]).toEqual({
        ErrorEquals: ['States.Timeout'],
        ResultPath: '$.answer',
        Next: TaskStates.applyAnswer,
      });
    });

    it('waits between batches with SecondsPath', () => {
      // Arrange
      const wait = states[FlowStates.waitBeforeNextBatch];

      // Act
      const type = wait?.Type;

      // Assert
      expect(type).toBe('Wait');
      expect(wait).toMatchObject({
        SecondsPath: '$.decision.waitSeconds',
        Next: TaskStates.checkDeployments,
      });
    });

    it('stops, then triggers evaluations, for system-job reschedules', () => {
      // Arrange
      const safe = states[FlowStates.safeToRestart] as unknown as {
        Choices: Array<Record<string, unknown>>;
        Default: string;
      };

      // Act
      const system = safe.Choices.find((c) => c['Variable'] === '$.plan.triggerEvaluations');

      // Assert
      expect(system?.['Next']).toBe(TaskStates.stopAllocations);
      expect(states[TaskStates.stopAllocations]?.['Next']).toBe(TaskStates.triggerEvaluations);
      // A stopped batch is never settled yet: straight to its replacements.
      expect(states[TaskStates.triggerEvaluations]?.['Next']).toBe(TaskStates.awaitBatch);
      expect(safe.Default).toBe(TaskStates.restartBatch);
    });

    it('loops Await batch until the batch settles', () => {
      // Arrange
      const settled = states[FlowStates.batchSettled] as unknown as {
        Choices: Array<Record<string, unknown>>;
        Default: string;
      };

      // Act
      const done = settled.Choices[0];

      // Assert: settled and, with -wait-healthy, judged healthy (or not) before Decide.
      expect(done).toMatchObject({
        And: [
          { Variable: '$.batch.done', BooleanEquals: true },
          {
            Not: {
              And: [
                { Variable: '$.options.waitHealthy', IsPresent: true },
                {
                  Not: {
                    And: [
                      { Variable: '$.batch.healthChecked', IsPresent: true },
                      { Variable: '$.batch.healthChecked', BooleanEquals: true },
                    ],
                  },
                },
              ],
            },
          },
        ],
        Next: TaskStates.decide,
      });
      expect(settled.Default).toBe(TaskStates.awaitBatch);
      expect(states[TaskStates.awaitBatch]?.['Next']).toBe(FlowStates.batchSettled);
    });

    it('loops Await health on a settled batch until it is judged', () => {
      // Arrange
      const settled = states[FlowStates.batchSettled] as unknown as {
        Choices: Array<Record<string, unknown>>;
      };

      // Act
      const health = settled.Choices.find((c) => c['Next'] === TaskStates.awaitHealth);

      // Assert: after the continue-as-new check, like Await batch.
      expect(health).toEqual({ Variable: '$.batch.done', BooleanEquals: true, Next: TaskStates.awaitHealth });
      expect(settled.Choices.indexOf(health ?? {})).toBe(2);
      expect(states[TaskStates.awaitHealth]?.['Next']).toBe(FlowStates.batchSettled);
    });

    it('continues as new after the configured number of batches', () => {
      // Arrange
      const next = states[FlowStates.nextStep] as unknown as { Choices: Array<Record<string, unknown>> };

      // Act
      const rules = next.Choices.filter((c) => c['Next'] === TaskStates.continueAsNew);

      // Assert: on the history budget (history-budget.ts), or after the configured batches.
      expect(rules).toEqual([
        {
          And: [
            { Variable: '$.progress.historyEvents', IsPresent: true },
            { Variable: '$.progress.historyEvents', NumericGreaterThanEquals: 20_000 },
          ],
          Next: TaskStates.continueAsNew,
        },
        {
          Variable: '$.progress.batchesThisExecution',
          NumericGreaterThanEquals: 50,
          Next: TaskStates.continueAsNew,
        },
      ]);
      expect(states[TaskStates.continueAsNew]).toMatchObject({
        Resource: 'arn:aws:states:::states:startExecution',
        Parameters: {
          StateMachineArn: 'arn:aws:states:us-east-1:123456789012:stateMachine:NomadRestartTest-Restart',
          Input: { 'continuation.$': '$', 'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id' },
        },
      });
    });

    it('releases the lock before every Fail state reached from a Task', () => {
      // Arrange
      const fails = statesOfType('Fail').map(([name]) => name);

      // Act
      const which = states[FlowStates.whichError] as unknown as {
        Choices: Array<{ Next: string }>;
        Default: string;
      };
      const routed = [...which.Choices.map((c) => c.Next), which.Default];

      // Assert
      expect(fails.sort()).toEqual(Object.values(FailStates).sort());
      expect(routed.sort()).toEqual(
        [
          FailStates.jobNotFound,
          FailStates.jobLocked,
          FailStates.rescheduleNotAllowed,
          FailStates.canceled,
          FailStates.stepFailed,
        ].sort(),
      );
      expect(states[TaskStates.releaseLockAfterError]?.['Next']).toBe(FlowStates.whichError);
    });

    it('maps every Task state to a handler module', () => {
      // Arrange
      const tasks = statesOfType('Task')
        .map(([name]) => name)
        .filter((n) => n !== TaskStates.continueAsNew);

      // Act
      const unmapped = tasks.filter((n) => TASK_STATE_HANDLERS[n] === undefined);

      // Assert
      expect(unmapped).toEqual([]);
    });

    it('uses JSONPath only (no JSONata, no Variables)', () => {
      // Arrange
      const text = JSON.stringify(asl);

      // Act
      const found = ['QueryLanguage', 'JSONata', '"Assign"', '"Arguments"', '"Output"'].filter((k) =>
        text.includes(k),
      );

      // Assert
      expect(found).toEqual([]);
    });

    it('passes asl-validator', () => {
      // Arrange
      const definition = asl;

      // Act
      const result = aslValidator(definition);

      // Assert
      expect(result.errorsText('\n')).toBe('');
      expect(result.isValid).toBe(true);
    });
  });

  describe('cdk-nag AwsSolutionsChecks', () => {
    it('reports no unacknowledged finding', () => {
      // Act
      const report = awsSolutionsFindings(app);

      // Assert
      expect(report).toEqual({ findings: [], success: true });
    });
  });
});
