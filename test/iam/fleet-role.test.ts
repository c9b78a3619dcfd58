/**
 * Scenario: the calls the fleet state machine's role makes, as Step Functions makes them for the
 * deployed definition of the full stack, evaluated through the IAM evaluator: invoking "Plan
 * fleet" and "Summarize fleet"; the Distributed Map starting, describing and stopping its item
 * executions on the fleet state machine, reading a run's item list and writing its results under
 * `fleets/`; each item's `.sync:2` start of the one-job state machine (its child's describe and
 * stop, the managed events rule); the DescribeExecution calls that follow a job continued as new.
 * And what the role may not do: read or write the one-job runs'
 * documents, start any other state machine.
 */
import { fleetKeys } from '../../lib/fleet/items';
import { FleetFlowStates, FleetTaskStates } from '../../lib/workflow/fleet-state-names';
import { ContinuationStates } from '../../lib/workflow/private/fleet-continuation';
import { fullStackTemplate } from './helpers/full-stack-template';
import { evaluateIdentityRequest } from './helpers/iam-evaluator';
import type { IamRequest } from './helpers/sdk-iam-actions';
import { logicalIdOf, type TaskCall, taskCalls } from './helpers/service-principals';
import { type NamedPolicy, TemplateIam } from './helpers/template-iam';

const t = new TemplateIam(await fullStackTemplate());
const machines = t.logicalIdsOf('AWS::StepFunctions::StateMachine');
const fleet = machines.find((id) => id.startsWith('FleetStateMachine')) ?? '';
const restart = machines.find((id) => id.startsWith('RestartStateMachine')) ?? '';
const fleetRole = logicalIdOf(t.properties(fleet)['RoleArn']);

/** An example fleet state: run `fleet-20261207`, its first job's execution name. */
const RUN = 'fleet-20261207';
/** The execution the first job continued in ("Continue as new execution" names it `<prefix>-2`). */
const CONTINUED = `${t.arnOf(restart).replace(':stateMachine:', ':execution:')}:${RUN}-default-web-0a1b2c3d4e5f-2`;
const SAMPLES = {
  '$.plan.itemsKey': fleetKeys(RUN).items,
  '$.plan.resultsPrefix': fleetKeys(RUN).results,
  '$.name': `${RUN}-default-web`,
  '$.output.executionArn': CONTINUED,
  '$.continued.ExecutionArn': CONTINUED,
};

async function denied(
  requests: readonly TaskCall[],
  policies: readonly NamedPolicy[] = t.rolePolicies(fleetRole),
) {
  const out: string[] = [];
  for (const { state, request } of requests) {
    const decision = await evaluateIdentityRequest(t.arnOf(fleetRole), policies, request);
    if (!decision.allowed)
      out.push(`state "${state}": ${request.action} on ${request.resource}: ${decision.explanation}`);
  }
  return out;
}

describe("the fleet state machine's role", () => {
  const calls = taskCalls(t, fleet, SAMPLES);

  it('has calls for both Lambda steps, the Distributed Map and the child start', () => {
    // Act
    const byState = new Map<string, string[]>();
    for (const { state, request } of calls)
      byState.set(state, [...(byState.get(state) ?? []), request.action]);

    // Assert
    expect([...byState.keys()].sort()).toEqual(
      [
        FleetTaskStates.planFleet,
        FleetTaskStates.summarizeFleet,
        `${FleetFlowStates.restartJobs}/${FleetTaskStates.restartJob}`,
        ...[
          ContinuationStates.readContinuedJob,
          ContinuationStates.readContinuedOutput,
          ContinuationStates.readContinuedError,
        ].map((state) => `${FleetFlowStates.restartJobs}/${state}`),
        FleetFlowStates.restartJobs,
      ].sort(),
    );
    expect(byState.get(`${FleetFlowStates.restartJobs}/${ContinuationStates.readContinuedJob}`)).toEqual([
      'states:DescribeExecution',
    ]);
    expect(new Set(byState.get(FleetFlowStates.restartJobs))).toEqual(
      new Set([
        'states:StartExecution',
        'states:DescribeExecution',
        'states:StopExecution',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        's3:ListMultipartUploadParts',
        's3:AbortMultipartUpload',
      ]),
    );
  });

  it('starts the one-job state machine for each job and its own item executions for the Map', () => {
    // Act
    const starts = calls
      .filter((c) => c.request.action === 'states:StartExecution')
      .map((c) => c.request.resource);

    // Assert
    expect(starts.sort()).toEqual([t.arnOf(fleet), t.arnOf(restart)].sort());
  });

  it('performs every call Step Functions makes for the fleet', async () => {
    // Act
    const refused = await denied(calls);

    // Assert
    expect(refused).toEqual([]);
  });

  it.each<[string, IamRequest]>([
    [
      "a one-job run's plan",
      { action: 's3:GetObject', resource: `arn:aws:s3:::${bucketName()}/runs/r1/plan.json`, context: {} },
    ],
    [
      "a one-job run's journal",
      { action: 's3:PutObject', resource: `arn:aws:s3:::${bucketName()}/runs/r1/journal.json`, context: {} },
    ],
    [
      'another state machine',
      {
        action: 'states:StartExecution',
        resource: 'arn:aws:states:us-east-1:123456789012:stateMachine:someone-else',
        context: {},
      },
    ],
    [
      "another state machine's execution",
      {
        action: 'states:DescribeExecution',
        resource: 'arn:aws:states:us-east-1:123456789012:execution:someone-else:run-2',
        context: {},
      },
    ],
    [
      'the bucket outside fleets/',
      {
        action: 's3:ListBucket',
        resource: `arn:aws:s3:::${bucketName()}`,
        context: { 's3:prefix': 'runs/' },
      },
    ],
  ])('may not touch %s', async (_, request) => {
    // Act
    const decision = await evaluateIdentityRequest(t.arnOf(fleetRole), t.rolePolicies(fleetRole), request);

    // Assert
    expect(decision.allowed).toBe(false);
  });

  it('fails naming the Map state when the grant of its item executions is removed', async () => {
    // Arrange: the role's policies without the statement on `<fleet>/*` executions.
    const policies = t.rolePolicies(fleetRole).map(({ name, policy }) => ({
      name,
      policy: {
        ...policy,
        Statement: policy.Statement.filter((s) => !JSON.stringify(s['Resource']).includes('-Fleet/*')),
      },
    }));

    // Act
    const refused = await denied(calls, policies);

    // Assert
    expect(refused).toEqual([
      expect.stringContaining(`state "${FleetFlowStates.restartJobs}": states:DescribeExecution on`),
      expect.stringContaining(`state "${FleetFlowStates.restartJobs}": states:StopExecution on`),
    ]);
  });
});

function bucketName(): string {
  const [bucket = ''] = t.logicalIdsOf('AWS::S3::Bucket').filter((id) => id.startsWith('RestartPlanBucket'));
  return t.nameOf(bucket);
}
