/**
 * Scenario: the execution `nomad-restart check` starts, `{"deploymentCheck": true}`, run through
 * the synthesized workflow, the local engine and the real handlers against the simulator. It
 * asks its one question through the ask function, ends with the answer, and sends Nomad nothing;
 * the same input with any restart field, or without `true`, ends in InvalidInput naming the field
 * before any question is parked.
 */
import type { RestartInput } from '../../lib/restart/input';
import { DEPLOYMENT_CHECK_QUESTION } from '../../lib/workflow/deployment-check';
import { FailStates, FlowStates, TaskStates } from '../../lib/workflow/state-names';
import { runWorkflowInput } from '../engines/local/helpers/workflow-harness';
import { OPERATOR_TOKEN, readmePolicyAcl } from '../fixtures/readme-policy';
import { harnessPerTest, simpleJob } from '../steps/helpers/harness';

const harness = harnessPerTest();

/** The check's input is not a restart's: the harness takes it as the console would send it. */
const asInput = (raw: unknown) => raw as RestartInput;

/** Nomad requests the simulator served, by route. */
const nomadRequests = (counters: Record<string, number>) =>
  Object.values(counters).reduce((sum, n) => sum + n, 0);

describe('a deployment check execution', () => {
  it('asks its one question, ends with the answer, and sends Nomad nothing', async () => {
    // Arrange
    const target = await harness.startRunning(simpleJob('web', 'service', 1));
    const before = nomadRequests(target.sim.control.counters());

    // Act
    const run = await runWorkflowInput(target, asInput({ deploymentCheck: true }), { replies: ['yes'] });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.result.output).toEqual({ answer: 'yes', answeredBy: 'terminal' });
    expect(run.prompts).toEqual([DEPLOYMENT_CHECK_QUESTION.prompt]);
    expect(run.entered).toEqual([
      FlowStates.isContinuation,
      TaskStates.validateDeploymentCheck,
      FlowStates.deploymentCheckReaches,
      TaskStates.askDeploymentCheck,
      FlowStates.deploymentCheckAnswered,
    ]);
    expect(nomadRequests(target.sim.control.counters())).toBe(before);
  });

  it('fails DeploymentCheckFailed when the question is not answered', async () => {
    // Arrange
    const target = await harness.startRunning(simpleJob('web', 'service', 1));

    // Act: no reply (a read error ends the wait as a timeout does on AWS).
    const run = await runWorkflowInput(target, asInput({ deploymentCheck: true }));

    // Assert
    expect(run.result.status).toBe('FAILED');
    expect(run.result.error).toBe(FailStates.deploymentCheckFailed);
  });

  it.each([
    {
      name: 'a restart field beside it',
      input: { deploymentCheck: true, job: 'web', yes: true },
      expectedErr:
        'Invalid input field "job": got "web", but a deployment check ({"deploymentCheck": true}) takes no other field than "reach"',
    },
    {
      name: 'a value other than true',
      input: { deploymentCheck: 1 },
      expectedErr: 'Invalid input field "deploymentCheck": got 1, expected true',
    },
  ])('ends in InvalidInput for $name, before any question', async ({ input, expectedErr }) => {
    // Arrange
    const target = await harness.startRunning(simpleJob('web', 'service', 1));
    const before = nomadRequests(target.sim.control.counters());

    // Act
    const run = await runWorkflowInput(target, asInput(input), { replies: ['yes'] });

    // Assert
    expect(run.result.status).toBe('FAILED');
    expect(run.result.error).toBe(FailStates.invalidInput);
    expect(run.result.cause).toBe(expectedErr);
    expect(run.prompts).toEqual([]);
    expect(nomadRequests(target.sim.control.counters())).toBe(before);
  });
});

describe('a deployment check that reads a job (nomad-restart check -job)', () => {
  /** The report "Reach Nomad for deployment check" left in the state, as the history holds it. */
  const reachedOf = (run: { exits: readonly { name: string; output: unknown }[] }) =>
    (run.exits.find((e) => e.name === TaskStates.reachDeploymentCheck)?.output as { reached?: unknown })
      ?.reached;

  /** Two allocations of `web` on an agent with ACLs on; the functions hold the README's token. */
  const cluster = () =>
    harness.startRunning(
      simpleJob('web', 'service', 2),
      { token: OPERATOR_TOKEN },
      { acl: readmePolicyAcl(), namespaces: ['default', 'prod'] },
    );

  it('reads the job through the plan function with the README policy, writes nothing, then asks', async () => {
    // Arrange
    const target = await cluster();
    const before = target.sim.control.counters();

    // Act
    const run = await runWorkflowInput(target, asInput({ deploymentCheck: true, reach: { job: 'web' } }), {
      replies: ['yes'],
      token: OPERATOR_TOKEN,
    });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(run.entered).toEqual([
      FlowStates.isContinuation,
      TaskStates.validateDeploymentCheck,
      FlowStates.deploymentCheckReaches,
      TaskStates.reachDeploymentCheck,
      TaskStates.askDeploymentCheck,
      FlowStates.deploymentCheckAnswered,
    ]);
    expect(reachedOf(run)).toEqual({
      nomadAddress: target.sim.address,
      nomad: {
        reached: true,
        job: 'web',
        namespace: 'default',
        type: 'service',
        status: 'running',
        allocations: 2,
      },
    });
    const after = target.sim.control.counters();
    const sent = Object.keys(after).filter((route) => route !== 'total' && after[route] !== before[route]);
    // Reads only: the job and its allocations, nothing written, no lock variable touched.
    expect(sent.sort()).toEqual(['GET /v1/job/:id', 'GET /v1/job/:id/allocations']);
  });

  it('reports a job Nomad does not have, and still asks its question', async () => {
    // Arrange
    const target = await cluster();

    // Act
    const run = await runWorkflowInput(target, asInput({ deploymentCheck: true, reach: { job: 'nope' } }), {
      replies: ['yes'],
      token: OPERATOR_TOKEN,
    });

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(reachedOf(run)).toEqual({
      nomadAddress: target.sim.address,
      nomad: {
        reached: false,
        error: {
          name: 'UnexpectedResponseError',
          message: 'Unexpected response code: 404 (job not found)',
          statusCode: 404,
        },
      },
    });
  });

  it('reports the 403 of a namespace the token has no policy for', async () => {
    // Arrange
    const target = await cluster();

    // Act
    const run = await runWorkflowInput(
      target,
      asInput({ deploymentCheck: true, reach: { job: 'web', namespace: 'prod' } }),
      { replies: ['yes'], token: OPERATOR_TOKEN },
    );

    // Assert
    expect(run.result.status).toBe('SUCCEEDED');
    expect(reachedOf(run)).toEqual({
      nomadAddress: target.sim.address,
      nomad: {
        reached: false,
        error: {
          name: 'UnexpectedResponseError',
          message: 'Unexpected response code: 403 (Permission denied)',
          statusCode: 403,
        },
      },
    });
  });
});
