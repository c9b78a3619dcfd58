// Scenario: the fleet state machine the stack deploys beside the one-job one, synthesized once:
// the rendered ASL (the plan, the Distributed Map over the plan store's item list with the fleet's
// budget, each job a `.sync:2` child of the one-job state machine, the summary and its ends),
// asl-validator, and the fleet's functions, log group and output.
import { createRequire } from 'node:module';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { FailStates } from '../../lib/workflow';
import {
  FLEET_FINISHED_WITH_ERRORS,
  JOB_FAILED_ERROR,
  READ_LOCK_HOLDER,
} from '../../lib/workflow/fleet-definition';
import { FleetFailStates, FleetFlowStates, FleetTaskStates } from '../../lib/workflow/fleet-state-names';
import {
  CONTINUED_JOB_POLL_SECONDS,
  ContinuationStates,
} from '../../lib/workflow/private/fleet-continuation';
import { extractAsl, synthStack } from './helpers/synth';

type State = Record<string, unknown> & { Type: string };
type Validator = (definition: unknown) => { isValid: boolean; errorsText: (separator?: string) => string };
const aslValidator = createRequire(import.meta.url)('asl-validator') as Validator;

let template: Template;
let asl: Record<string, unknown> & { States: Record<string, Record<string, unknown>> };
let states: Record<string, State>;
let processor: Record<string, State>;

beforeAll(() => {
  ({ template } = synthStack());
  asl = extractAsl(template, 'FleetStateMachine');
  states = asl.States as Record<string, State>;
  const map = states[FleetFlowStates.restartJobs] as unknown as {
    ItemProcessor: { States: Record<string, State> };
  };
  processor = map.ItemProcessor.States;
});

describe('the fleet state machine', () => {
  it('plans first, with the execution’s name as the run ID, and ends bad input in InvalidInput with the message', () => {
    // Act
    const plan = states[FleetTaskStates.planFleet];

    // Assert
    expect(asl['StartAt']).toBe(FleetTaskStates.planFleet);
    expect(plan?.['Parameters']).toEqual({
      'input.$': '$',
      'executionId.$': '$$.Execution.Id',
      'executionName.$': '$$.Execution.Name',
      'startTime.$': '$$.Execution.StartTime',
    });
    expect(plan?.['Catch']).toEqual([
      { ErrorEquals: ['InvalidInputError'], ResultPath: '$.error', Next: 'Read fleet input error' },
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Step error readable?' },
    ]);
    expect(states[FleetFailStates.invalidInput]).toEqual({
      Type: 'Fail',
      Error: FleetFailStates.invalidInput,
      CausePath: '$.error.Cause.errorMessage',
    });
  });

  it('restarts jobs only when the plan has some and it is no dry run', () => {
    // Act
    const choice = states[FleetFlowStates.jobsToRestart];

    // Assert
    expect(choice).toEqual({
      Type: 'Choice',
      Choices: [
        {
          And: [
            { Variable: '$.plan.jobs', NumericGreaterThan: 0 },
            { Variable: '$.dryRun', BooleanEquals: false },
          ],
          Next: FleetFlowStates.restartJobs,
        },
      ],
      Default: FleetTaskStates.summarizeFleet,
    });
  });

  it('maps over the plan store’s item list with the fleet’s budget, writing results there and summarizing even a failed Map Run', () => {
    // Act
    const { ItemProcessor, ...map } = states[FleetFlowStates.restartJobs] as State & {
      ItemProcessor: unknown;
    };

    // Assert
    expect(map).toEqual({
      Type: 'Map',
      ItemReader: {
        Resource: 'arn:aws:states:::s3:getObject',
        ReaderConfig: { InputType: 'JSON' },
        Parameters: { Bucket: expect.stringMatching(/^ref-RestartPlanBucket/), 'Key.$': '$.plan.itemsKey' },
      },
      ItemSelector: { 'options.$': '$.jobOptions', 'item.$': '$$.Map.Item.Value' },
      MaxConcurrencyPath: '$.budget.maxJobs',
      ToleratedFailureCountPath: '$.budget.maxFailedJobs',
      ResultWriter: {
        Resource: 'arn:aws:states:::s3:putObject',
        Parameters: {
          Bucket: expect.stringMatching(/^ref-RestartPlanBucket/),
          'Prefix.$': '$.plan.resultsPrefix',
        },
      },
      ResultPath: '$.mapResult',
      Catch: [
        { ErrorEquals: ['States.ALL'], ResultPath: '$.mapError', Next: FleetTaskStates.summarizeFleet },
      ],
      Next: FleetTaskStates.summarizeFleet,
    });
    expect(ItemProcessor).toMatchObject({
      ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
      StartAt: FleetFlowStates.jobInput,
    });
  });

  it('starts each job as a .sync:2 child of the one-job state machine, named by the item, its input the merged options', () => {
    // Act
    const input = processor[FleetFlowStates.jobInput];
    const restart = processor[FleetTaskStates.restartJob];

    // Assert
    expect(input?.['Parameters']).toEqual({
      'input.$': 'States.JsonMerge($.options, $.item.input, false)',
      'name.$': '$.item.executionName',
    });
    expect(restart).toMatchObject({
      Resource: 'arn:aws:states:::states:startExecution.sync:2',
      Parameters: {
        StateMachineArn: expect.stringMatching(/^ref-RestartStateMachine/),
        'Input.$': '$.input',
        'Name.$': '$.name',
      },
      ResultSelector: {
        'job.$': '$.Input.job',
        'namespace.$': '$.Input.namespace',
        'fleet.$': '$.Input.fleet',
        'executionArn.$': '$.ExecutionArn',
        'output.$': '$.Output',
      },
      Next: ContinuationStates.jobContinued,
    });
    expect((restart?.['Retry'] as { ErrorEquals: string[] }[] | undefined)?.[0]?.ErrorEquals).toContain(
      'StepFunctions.ExecutionLimitExceeded',
    );
  });

  it('follows a job that continued as new until its chain ends, reading only the status while it runs', () => {
    // Act
    const continued = processor[ContinuationStates.jobContinued];
    const read = processor[ContinuationStates.readContinuedJob];
    const status = processor[ContinuationStates.continuedJobStatus];

    // Assert: a hand-over (the successor's ARN, no run summary) waits and reads the successor.
    expect(continued).toMatchObject({
      Choices: [
        {
          And: [
            { Variable: '$.output.executionArn', IsPresent: true },
            { Not: { Variable: '$.output.outcome', IsPresent: true } },
          ],
          Next: ContinuationStates.waitForContinuedJob,
        },
      ],
    });
    expect(processor[ContinuationStates.waitForContinuedJob]).toMatchObject({
      Seconds: CONTINUED_JOB_POLL_SECONDS,
      Next: ContinuationStates.readContinuedJob,
    });
    expect(read).toMatchObject({
      Resource: 'arn:aws:states:::aws-sdk:sfn:describeExecution',
      Parameters: { 'ExecutionArn.$': '$.output.executionArn' },
      ResultSelector: { 'Status.$': '$.Status', 'ExecutionArn.$': '$.ExecutionArn' },
      ResultPath: '$.continued',
    });
    expect(status?.['Default']).toBe(ContinuationStates.continuedJobStopped);
    // A succeeded successor's summary becomes the item's output and is checked again (it may
    // have continued too); a failed one fails the item with its own error.
    expect(processor[ContinuationStates.takeContinuedOutput]?.['Next']).toBe(ContinuationStates.jobContinued);
    expect(processor[ContinuationStates.continuedJobFailed]).toMatchObject({
      Type: 'Fail',
      ErrorPath: '$.continued.Error',
      CausePath: '$.continued.Cause',
    });
  });

  it('succeeds the item of a job locked by another run and fails any other failed job', () => {
    // Act
    const restart = processor[FleetTaskStates.restartJob];
    const locked = processor[FleetFlowStates.jobLocked];

    // Assert
    expect(restart?.['Catch']).toEqual([
      { ErrorEquals: ['States.TaskFailed'], ResultPath: '$.error', Next: FleetFlowStates.readJobError },
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: FleetFlowStates.jobFailed },
    ]);
    expect(processor[FleetFlowStates.readJobError]?.['Parameters']).toEqual({
      'execution.$': 'States.StringToJson($.error.Cause)',
    });
    expect(locked?.['Choices']).toEqual([
      {
        And: [
          { Variable: '$.failedExecution.execution.Error', IsPresent: true },
          { Variable: '$.failedExecution.execution.Error', StringEquals: FailStates.jobLocked },
        ],
        Next: READ_LOCK_HOLDER,
      },
    ]);
    expect(locked?.['Default']).toBe(FleetFlowStates.jobFailed);
    expect(processor[READ_LOCK_HOLDER]).toEqual({
      Type: 'Pass',
      Parameters: {
        'job.$': '$.input.job',
        'namespace.$': '$.input.namespace',
        'fleet.$': '$.input.fleet',
        'executionArn.$': '$.failedExecution.execution.ExecutionArn',
        'output.$': '$.failedExecution.execution.Cause',
      },
      Next: FleetFlowStates.jobSkippedLocked,
    });
    expect(processor[FleetFlowStates.jobSkippedLocked]).toEqual({ Type: 'Succeed' });
    expect(processor[FleetFlowStates.jobFailed]).toEqual({
      Type: 'Fail',
      Error: JOB_FAILED_ERROR,
      CausePath: '$.error.Cause',
    });
  });

  it('ends in FleetRestartFinishedWithErrors with the summary as the cause, else succeeds with the summary', () => {
    // Act
    const summarize = states[FleetTaskStates.summarizeFleet];
    const choice = states[summarize?.['Next'] as string];

    // Assert
    expect(summarize?.['ResultPath']).toBe('$.summary');
    expect(choice?.['Choices']).toEqual([
      {
        Variable: '$.summary.outcome',
        StringEquals: FLEET_FINISHED_WITH_ERRORS,
        Next: FleetFailStates.fleetFinishedWithErrors,
      },
    ]);
    expect(states[FleetFailStates.fleetFinishedWithErrors]?.['CausePath']).toBe('$.summary.text');
    expect(states[FleetFlowStates.fleetFinished]).toEqual({ Type: 'Succeed', OutputPath: '$.summary' });
  });

  it('uses JSONPath only and passes asl-validator', () => {
    // Act
    // Read before validating: asl-validator writes its defaults (QueryLanguage) into the definition.
    const text = JSON.stringify(asl);
    const result = aslValidator(structuredClone(asl));

    // Assert
    expect(['QueryLanguage', 'JSONata', '"Assign"', '"Arguments"'].filter((k) => text.includes(k))).toEqual(
      [],
    );
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });
});

describe('the fleet’s resources', () => {
  it('gives Nomad’s address and secrets and the plan bucket to both (each writes the fleet’s record)', () => {
    // Act
    const env = (handler: string) => {
      const [fn] = Object.values(
        template.findResources('AWS::Lambda::Function', {
          Properties: { Description: Match.absent() },
        }),
      ).filter((f) => JSON.stringify(f).includes(`Fleet${handler}fnRole`));
      return Object.keys(
        (fn as { Properties: { Environment: { Variables: object } } }).Properties.Environment.Variables,
      );
    };

    // Assert
    for (const handler of ['planfleet', 'summarizefleet']) {
      expect(env(handler)).toEqual(
        expect.arrayContaining([
          'NOMAD_ADDR',
          'NOMAD_TOKEN_SECRET_ARN',
          'NOMAD_TLS_SECRET_ARN',
          'PLAN_BUCKET',
        ]),
      );
    }
  });

  it('routes a fleet execution that failed, timed out or was aborted to end-fleet-record, which has Nomad and nothing else', () => {
    // Arrange
    const fleetMachine = Object.keys(template.findResources('AWS::StepFunctions::StateMachine')).find((id) =>
      id.startsWith('FleetStateMachine'),
    );
    const [endFn, props] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('Fleetendfleetrecordfn'),
    ) ?? ['', {}];

    // Act
    const rules = template.findResources('AWS::Events::Rule', {
      Properties: {
        EventPattern: Match.objectLike({
          'detail-type': ['Step Functions Execution Status Change'],
          detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [{ Ref: fleetMachine }] },
        }),
      },
    });

    // Assert
    expect(Object.values(rules)).toHaveLength(1);
    expect(JSON.stringify(Object.values(rules)[0])).toContain(`"${endFn}"`);
    const env = Object.keys(
      (props as { Properties: { Environment: { Variables: object } } }).Properties.Environment.Variables,
    );
    expect(env).toEqual(expect.arrayContaining(['NOMAD_ADDR', 'NOMAD_TOKEN_SECRET_ARN']));
    expect(env).not.toContain('PLAN_BUCKET');
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: endFn },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });

  it('exports the fleet state machine’s ARN and logs it under /aws/vendedlogs/states/', () => {
    // Assert
    template.hasOutput('FleetStateMachineArn', {
      Value: { Ref: Match.stringLikeRegexp('^FleetStateMachine') },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: {
        'Fn::Join': ['-', ['/aws/vendedlogs/states/NomadRestartTest-Fleet', Match.anyValue()]],
      },
    });
  });

  it('exports the fleet input’s JSON Schema: selectors and budget, and no job', () => {
    // Act
    const schema = JSON.parse(
      String(template.findOutputs('FleetInputJsonSchema')['FleetInputJsonSchema']?.['Value']),
    ) as {
      properties: Record<string, unknown>;
    };

    // Assert
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        'namespace',
        'filter',
        'nodes',
        'nodePool',
        'datacenters',
        'maxJobs',
        'maxFailedJobs',
      ]),
    );
    expect(schema.properties['job']).toBeUndefined();
  });

  it.each([
    ['start', ['states:StartExecution'], ['states:GetExecutionHistory'], true],
    ['interrupt', [], ['states:StopExecution'], false],
    ['attach', [], ['states:GetExecutionHistory'], true],
  ] as const)(
    'grants an operator the %s use of fleets, and nothing more',
    (use, onMachine, onExecutions, readsJobs) => {
      // Arrange
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
      const stack = new NomadRestartStack(app, 'FleetOperators', {
        nomadAddress: 'https://nomad.internal:4646',
      });
      const role = new iam.Role(stack, 'Operator', { assumedBy: new iam.AccountRootPrincipal() });

      // Act
      stack.fleet.grantOperate(role, use);
      const [policy] = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy')).filter(
        (p) => JSON.stringify(p).includes('"Ref":"Operator'),
      );
      const statements = (
        policy as { Properties: { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } } }
      ).Properties.PolicyDocument.Statement.map(
        (st) => [[st.Action].flat(), JSON.stringify(st.Resource)] as const,
      );

      // Assert: following a fleet (start, attach) also lists its map run's executions and reads
      // their histories, on ARNs built from the fleet state machine's name.
      const onFleet = statements.filter(([, r]) => /"(Ref|Fn::GetAtt)":\[?"FleetStateMachine/.test(r));
      const onJobs = statements.filter(([, r]) => r.includes('"Ref":"RestartStateMachine'));
      const onMapRuns = readsJobs ? ['states:ListExecutions', 'states:GetExecutionHistory'] : [];
      expect(onFleet.flatMap(([a]) => a).sort()).toEqual(
        [...onMachine, ...onExecutions, ...onMapRuns].sort(),
      );
      expect(statements.filter(([, r]) => r.includes(':mapRun:')).flatMap(([a]) => a)).toEqual(
        readsJobs ? ['states:ListExecutions'] : [],
      );
      expect(onJobs.flatMap(([a]) => a)).toEqual(readsJobs ? ['states:GetExecutionHistory'] : []);
      expect(statements.length).toBe(onFleet.length + onJobs.length);
    },
  );
});
