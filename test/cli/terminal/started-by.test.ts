// Scenario: a local run's input says who started it: `user@host` of this process (never a
// secret), the `startedBy` that chat's messages show ("Started by <user>@<host>") when a run's
// questions reach chat. The steps run before the engine (plan-first.ts) and the local engine are
// stood in for, to read the input the command gives each.
import { PassThrough } from 'node:stream';
import { jest } from '@jest/globals';
import type { ExecutionResult } from '../../../lib/engines/local/types';
import type { RestartInput } from '../../../lib/restart/input';

const inputs: RestartInput[] = [];
const plannedInputs: RestartInput[] = [];
jest.unstable_mockModule('../../../lib/engines/local/plan-first', () => ({
  planFirst: async (request: { input: RestartInput }) => {
    plannedInputs.push(request.input);
    return { kind: 'made', made: { executionName: 'run-1', executionId: 'run-1', outcomes: new Map() } };
  },
}));
jest.unstable_mockModule('../../../lib/engines/local/engine', () => ({
  runRestartLocally: async (request: { input: RestartInput }) => {
    inputs.push(request.input);
    return {
      result: Promise.resolve({} as ExecutionResult),
      pause: () => undefined,
      resume: () => undefined,
      requestCancel: async () => undefined,
    };
  },
}));
const { runLocal } = await import('../../../lib/cli/terminal/run-local');
const { parseJobRestartArgs } = await import('../../../lib/cli/commands/job-restart-command');
const { operatorName } = await import('../../../lib/cli/terminal/operator');
const { createFormatter } = await import('../../../lib/restart/format');
const { fakeTerminal } = await import('../../engines/aws/helpers/fixtures');

describe('who started a local run', () => {
  it('is this process’s user@host, in the run’s input', async () => {
    // Arrange
    const tty = fakeTerminal();
    const line = parseJobRestartArgs(['-batch-wait', 'ask', 'example'], { interactive: true, env: {} });

    // Act
    await runLocal(line, createFormatter({ verbose: false, color: false }), tty.terminal, tty.interrupts, {
      stderr: new PassThrough(),
      env: {},
    });

    // Assert
    expect(plannedInputs.map((i) => i.startedBy)).toEqual([operatorName()]);
    expect(inputs.map((i) => i.startedBy)).toEqual([operatorName()]);
    expect(operatorName()).toMatch(/^[^@\s]+@[^@\s]+$/);
  });
});
