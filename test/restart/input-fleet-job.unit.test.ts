import { validateRestartInput } from '../../lib/restart/input';

describe('input of a fleet’s job', () => {
  describe('validateRestartInput', () => {
    const now = Date.UTC(2026, 11, 7, 9);
    const ahead = '2026-12-07T09:00:20.000Z';

    it('keeps a startedBefore after the run’s start when a fleet’s plan set it (Nomad’s clock may run ahead)', () => {
      // Arrange
      const input = {
        job: 'api',
        yes: true,
        startedBefore: ahead,
        fleet: { runId: 'rotation-1', index: 1, of: 3 },
      };

      // Act
      const options = validateRestartInput(input, { interactive: false, now });

      // Assert
      expect(options.startedBefore).toBe(Date.parse(ahead));
    });

    it('still refuses it from a person, outside a fleet', () => {
      // Act
      const act = () =>
        validateRestartInput({ job: 'api', yes: true, startedBefore: ahead }, { interactive: false, now });

      // Assert
      expect(act).toThrow(
        'Invalid -started-before value "2026-12-07T09:00:20.000Z": the time 2026-12-07T09:00:20.000Z is in the future (it is 2026-12-07T09:00:00.000Z); no allocation can have started after it yet',
      );
    });
  });
});
