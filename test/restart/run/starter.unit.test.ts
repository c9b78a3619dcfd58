import { runStarter } from '../../../lib/restart/run/starter';

describe('runStarter', () => {
  it.each([
    {
      name: "a fleet's job, whoever started the fleet",
      options: { fleet: { runId: 'fleet-1', index: 2, of: 3 }, scheduleName: 'nightly' },
      startedBy: 'alice@laptop',
      expected: 'fleet run "fleet-1" (job 2 of 3)',
    },
    { name: 'a terminal', options: {}, startedBy: 'alice@laptop', expected: 'alice@laptop' },
    {
      name: 'a schedule',
      options: { scheduleName: 'nightly' },
      startedBy: undefined,
      expected: 'schedule "nightly"',
    },
    {
      name: 'the console',
      options: {},
      startedBy: undefined,
      expected: 'an unnamed caller (the console or an SDK call: the input had no "startedBy")',
    },
  ])('names $name', ({ options, startedBy, expected }) => {
    // Act
    const who = runStarter(options, startedBy);

    // Assert
    expect(who).toBe(expected);
  });
});
