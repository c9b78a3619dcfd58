/**
 * Scenario: the state machine an installed package runs locally. `npm run build` synthesizes it
 * once (`synthesizeLocalStateMachine`, the CDK app in a child process) and ships it as JSON; it
 * must be the definition the CDK app renders, and an installed package (no `bin/app.ts`) must run
 * that file, never a synth, and refuse a file that is not one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { extractStateMachineDefinition } from '../../../lib/engines/local';
import {
  loadLocalDefinition,
  SHIPPED_DEFINITION_FILE,
  STATE_MACHINE_ID_PREFIXES,
  synthesizeLocalStateMachine,
} from '../../../lib/engines/local/local-definition';
import { RESTART_STATE_MACHINE_ARN } from '../../../lib/engines/local/plan-first';
import { synthesizeStack } from '../../aws-limits/helpers/synthesized-stack';

describe('synthesizeLocalStateMachine', () => {
  it('renders both state machines (definition, ARN and timeouts) as the CDK app synthesizes them', async () => {
    // Arrange
    const { template, stateMachine: rendered } = synthesizeStack();
    const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
      logicalIdPrefix: STATE_MACHINE_ID_PREFIXES.fleet,
    });

    // Act
    const shipped = await synthesizeLocalStateMachine();

    // Assert
    expect(shipped).toEqual({ ...rendered, fleet: { definition, stateMachineArn, functionTimeoutsMs } });
    expect(Object.keys(shipped.functionTimeoutsMs).length).toBeGreaterThan(10);
    // The terminal names its run before the definition is loaded (plan-first.ts).
    expect(shipped.stateMachineArn).toBe(RESTART_STATE_MACHINE_ARN);
  });
});

describe('loadLocalDefinition', () => {
  let packageDir: string;
  beforeEach(() => {
    packageDir = mkdtempSync(join(tmpdir(), 'shipped-definition-'));
    mkdirSync(dirname(join(packageDir, SHIPPED_DEFINITION_FILE)), { recursive: true });
  });
  afterEach(() => rmSync(packageDir, { recursive: true, force: true }));

  it('reads the shipped definition in an installed package, without a synth', async () => {
    // Arrange
    const shipped = {
      definition: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
      stateMachineArn: 'arn:aws:states:local:000000000000:stateMachine:NomadRestart',
      functionTimeoutsMs: { PlanFunction: 30_000 },
    };
    writeFileSync(join(packageDir, SHIPPED_DEFINITION_FILE), JSON.stringify(shipped));

    // Act
    const loaded = await loadLocalDefinition(packageDir);

    // Assert
    expect(loaded).toEqual({ stateMachine: shipped });
  });

  it("reads the fleet's state machine shipped beside the one-job one", async () => {
    // Arrange
    const machine = (name: string) => ({
      definition: { StartAt: 'Done', States: { Done: { Type: 'Succeed' } } },
      stateMachineArn: `arn:aws:states:local:000000000000:stateMachine:${name}`,
      functionTimeoutsMs: { PlanFunction: 30_000 },
    });
    const shipped = { ...machine('Restart'), fleet: machine('Fleet') };
    writeFileSync(join(packageDir, SHIPPED_DEFINITION_FILE), JSON.stringify(shipped));

    // Act
    const loaded = await loadLocalDefinition(packageDir);

    // Assert
    expect(loaded.stateMachine.fleet?.stateMachineArn).toBe(
      'arn:aws:states:local:000000000000:stateMachine:Fleet',
    );
    expect(loaded.stateMachine.stateMachineArn).toBe(
      'arn:aws:states:local:000000000000:stateMachine:Restart',
    );
  });

  it.each([
    { name: 'a missing file', content: undefined, expectedErr: /cannot read the shipped definition/ },
    {
      name: 'a fleet that is not a state machine',
      content: JSON.stringify({
        definition: {},
        stateMachineArn: 'arn',
        functionTimeoutsMs: {},
        fleet: { definition: 'x' },
      }),
      expectedErr: /is not a shipped definition/,
    },
    { name: 'not JSON', content: '{', expectedErr: /cannot read the shipped definition/ },
    {
      name: 'a template instead',
      content: JSON.stringify({ Resources: {} }),
      expectedErr: /is not a shipped definition: want \{definition, stateMachineArn, functionTimeoutsMs\}/,
    },
    {
      name: 'a timeout that is not a number',
      content: JSON.stringify({ definition: {}, stateMachineArn: 'arn', functionTimeoutsMs: { Fn: '3s' } }),
      expectedErr: /is not a shipped definition/,
    },
  ])('refuses $name', async ({ content, expectedErr }) => {
    // Arrange
    if (content !== undefined) writeFileSync(join(packageDir, SHIPPED_DEFINITION_FILE), content);

    // Act / Assert
    await expect(loadLocalDefinition(packageDir)).rejects.toThrow(expectedErr);
  });
});
