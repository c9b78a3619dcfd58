/**
 * A fleet run steered through the signed webhook request `{"runId": <fleet run>, ...}`: the run ID
 * holds the fleet's item, so a resume takes the fleet's pause back and answers yes to the fleet's
 * job parked on its pause question (listed under the one-job state machine the endpoint is told),
 * with exactly one SendTaskSuccess, leaving another fleet's parked job alone.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { APPROVAL_ROUTES, handleApprovalRequest } from '../../lib/approvals';
import { executionName } from '../../lib/fleet/execution-name';
import { holdFleetControl } from '../../lib/steps/fleet/fleet-control-item';
import { MemoryJobLock } from '../../lib/stores';
import { fleetControlKey } from '../../lib/stores/fleet-control-key';
import { endpointDeps, parkedQuestion, storeWith, WEBHOOK_KEYS, webhookHeaders } from './helpers/approvals';

const sfn = mockClient(SFNClient);
const NOW_S = 1_700_000_100;
const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:NomadRestart-Restart';
const FLEET_RUN = 'weekly-payments';
const childOf = (fleetRunId: string) =>
  `${MACHINE.replace(':stateMachine:', ':execution:')}:${executionName(fleetRunId, 'default', 'web')}`;
const pauseOf = (runId: string, taskToken: string) =>
  parkedQuestion({
    kind: 'pause',
    runId,
    executionId: runId,
    taskToken,
    stateMachineArn: MACHINE,
    prompt: 'Paused by ops (webhook).\nResume the restart? [y/N]',
  });

describe('a webhook request naming a fleet run', () => {
  afterEach(() => sfn.reset());

  it("takes the fleet's pause back and answers its parked job yes, once", async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const lock = new MemoryJobLock(() => NOW_S * 1000);
    await holdFleetControl(lock, FLEET_RUN);
    await lock.requestControl(fleetControlKey(FLEET_RUN), FLEET_RUN, {
      verb: 'pause',
      requestedBy: 'ops',
      via: 'webhook',
      at: 1,
    });
    const ours = pauseOf(childOf(FLEET_RUN), 'our-token');
    const theirs = pauseOf(childOf('another-fleet'), 'their-token');
    const store = await storeWith(ours, theirs);
    const deps = endpointDeps(
      store,
      NOW_S,
      { info: () => {}, warn: () => {} },
      { tellPrivately: async () => {}, openModal: async () => {} },
    );
    const body = JSON.stringify({ runId: FLEET_RUN, request: 'resume', requestedBy: 'ops-bot' });

    // Act
    const response = await handleApprovalRequest(
      { ...deps, lock, restartStateMachineArn: MACHINE },
      {
        method: 'POST',
        path: APPROVAL_ROUTES.webhookRequests,
        headers: webhookHeaders(body, NOW_S, 'ops', WEBHOOK_KEYS.ops),
        body,
      },
    );

    // Assert
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'withdrawn' });
    expect(await lock.controlRequest(fleetControlKey(FLEET_RUN), FLEET_RUN)).toBeUndefined();
    expect(sfn.commandCalls(SendTaskSuccessCommand).map((c) => c.args[0].input.taskToken)).toEqual([
      'our-token',
    ]);
    expect((await store.get(ours.approvalId)).decision).toMatchObject({ answer: 'yes', via: 'webhook' });
    expect((await store.get(theirs.approvalId)).decision).toBeUndefined();
  });
});
