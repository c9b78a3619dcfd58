import fc from 'fast-check';
import { RestartValidationError } from '../../lib/restart/errors';
import {
  MAX_STARTED_BY_LENGTH,
  restartInputJsonSchema,
  toRestartInput,
  validateRestartInput,
} from '../../lib/restart/input';
import { restartOptions, WINDOW_INPUT_FIELDS } from '../fixtures/restart-options';

const headless = { interactive: false };

function messageOf(act: () => unknown): string {
  try {
    act();
  } catch (err) {
    expect(err).toBeInstanceOf(RestartValidationError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('input', () => {
  describe('validateRestartInput', () => {
    it('applies the defaults of nomad job restart', () => {
      // Arrange / Act
      const options = validateRestartInput({ job: ' example ', yes: true }, headless);

      // Assert
      expect(options).toEqual(restartOptions('example'));
    });

    it('reads every field', () => {
      // Arrange
      const raw = {
        job: 'example',
        namespace: 'prod',
        region: 'eu',
        batchSize: 25,
        batchWait: 'ASK',
        onError: 'fail',
        groups: ['web', 'web', 'proxy'],
        reschedule: true,
        noShutdownDelay: true,
        verbose: true,
        replacementTimeout: '10m',
        maxErrors: '10%',
        dryRun: true,
        waitHealthy: true,
        minHealthyTime: '30s',
        healthyDeadline: '10m',
      };

      // Act
      const options = validateRestartInput(raw, { interactive: true });

      // Assert
      expect(options).toEqual({
        job: 'example',
        namespace: 'prod',
        region: 'eu',
        batchSize: { value: 25, percent: false },
        batchWait: { kind: 'ask' },
        onError: 'fail',
        yes: false,
        groups: ['web', 'proxy'],
        tasks: [],
        allTasks: false,
        reschedule: true,
        noShutdownDelay: true,
        verbose: true,
        replacementTimeoutNs: 600e9,
        maxErrors: { value: 10, percent: true },
        dryRun: true,
        waitHealthy: { minHealthyTimeNs: 30e9, healthyDeadlineNs: 600e9 },
      });
    });

    it("gives the health gate Nomad's update defaults: 10s healthy, a 5m deadline", () => {
      // Arrange / Act
      const options = validateRestartInput({ job: 'j', yes: true, waitHealthy: true }, headless);

      // Assert
      expect(options.waitHealthy).toEqual({ minHealthyTimeNs: 10e9, healthyDeadlineNs: 300e9 });
    });

    it('leaves the health gate off unless asked for', () => {
      // Arrange / Act
      const options = validateRestartInput({ job: 'j', yes: true, waitHealthy: false }, headless);

      // Assert
      expect(options.waitHealthy).toBeUndefined();
    });

    it.each([
      {
        name: 'not an object',
        raw: 'example',
        expectedErr: 'Invalid input: got "example", expected a JSON object with a "job" field',
      },
      {
        name: 'null',
        raw: null,
        expectedErr: 'Invalid input: got null, expected a JSON object with a "job" field',
      },
      {
        name: 'missing job',
        raw: { yes: true },
        expectedErr:
          'Invalid input field "job": got nothing, expected a job ID or ID prefix (non-empty string)',
      },
      {
        name: 'empty job',
        raw: { job: '  ' },
        expectedErr: 'Invalid input field "job": got "  ", expected a job ID or ID prefix (non-empty string)',
      },
      {
        name: 'string boolean',
        raw: { job: 'j', yes: 'true' },
        expectedErr: 'Invalid input field "yes": got "true", expected true or false',
      },
      {
        name: 'boolean batch size',
        raw: { job: 'j', batchSize: true },
        expectedErr:
          'Invalid input field "batchSize": got true, expected n or n% (string or integer), e.g. "2" or "25%"',
      },
      {
        name: 'number in groups',
        raw: { job: 'j', groups: ['a', 3] },
        expectedErr: 'Invalid input field "groups[1]": got 3, expected a string',
      },
      {
        name: 'unknown field',
        raw: { job: 'j', batch_size: '2' },
        expectedErr:
          'Unknown input field "batch_size": allowed fields are job, namespace, region, batchSize, batchWait, onError, yes, groups, tasks, allTasks, reschedule, noShutdownDelay, verbose, replacementTimeout, maxErrors, dryRun, waitHealthy, minHealthyTime, healthyDeadline, startedBy, windowEnd, windowDuration, trigger, scheduleName, scheduledTime, resumeNextWindow',
      },
      {
        name: 'startedBy past 200 characters',
        raw: { job: 'j', startedBy: 'x'.repeat(201) },
        expectedErr: `Invalid input field "startedBy": got "${'x'.repeat(201)}", expected who or what started the run, shown with its questions in chat (string, at most 200 characters)`,
      },
      // Nomad's checks 3-9, in order, with Nomad's messages.
      {
        name: 'decimal batch size number',
        raw: { job: 'j', batchSize: 1.5, yes: true },
        expectedErr: 'Invalid -batch-size value "1.5": batch size must be an integer or a percentage',
      },
      {
        name: 'negative batch size number',
        raw: { job: 'j', batchSize: -1, yes: true },
        expectedErr: 'Invalid -batch-size value "-1": batch size must be an integer or a percentage',
      },
      {
        name: 'zero batch size',
        raw: { job: 'j', batchSize: '0%', yes: true },
        expectedErr: 'Invalid -batch-size value "0%": number value must be greater than zero',
      },
      {
        name: 'ask wait without approvals',
        raw: { job: 'j', batchWait: 'ask' },
        expectedErr: 'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'bad wait',
        raw: { job: 'j', batchWait: '10', yes: true },
        expectedErr: 'Invalid -batch-wait value "10": time: missing unit in duration "10"',
      },
      {
        name: 'ask on error without approvals',
        raw: { job: 'j' },
        expectedErr: 'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      },
      {
        name: 'bad on error',
        raw: { job: 'j', onError: 'Fail', yes: true },
        expectedErr: 'Invalid -on-error value "Fail": valid options are "ask" and "fail"',
      },
      {
        name: 'all tasks with task',
        raw: { job: 'j', allTasks: true, tasks: ['t'], yes: true },
        expectedErr: 'The -all-tasks option cannot be used with -task',
      },
      {
        name: 'reschedule with task',
        raw: { job: 'j', reschedule: true, tasks: ['t'], yes: true },
        expectedErr: 'The -reschedule option cannot be used with -task',
      },
      {
        name: 'zero timeout',
        raw: { job: 'j', replacementTimeout: '-5s', yes: true },
        expectedErr: 'Invalid -replacement-timeout value "-5s": duration must be greater than zero',
      },
      {
        name: 'bad max errors',
        raw: { job: 'j', maxErrors: '1.5', yes: true },
        expectedErr: 'Invalid -max-errors value "1.5": max errors must be an integer or a percentage',
      },
      {
        name: 'string waitHealthy',
        raw: { job: 'j', waitHealthy: 'yes', yes: true },
        expectedErr: 'Invalid input field "waitHealthy": got "yes", expected true or false',
      },
      {
        name: 'bad min healthy time',
        raw: { job: 'j', waitHealthy: true, minHealthyTime: '10', yes: true },
        expectedErr: 'Invalid -min-healthy-time value "10": time: missing unit in duration "10"',
      },
      {
        name: 'bad healthy deadline',
        raw: { job: 'j', waitHealthy: true, healthyDeadline: '5 m', yes: true },
        expectedErr: 'Invalid -healthy-deadline value "5 m": time: unknown unit " m" in duration "5 m"',
      },
      {
        name: 'negative min healthy time',
        raw: { job: 'j', waitHealthy: true, minHealthyTime: '-1s', yes: true },
        expectedErr: 'Invalid -min-healthy-time value "-1s": duration must not be negative',
      },
      {
        name: 'zero healthy deadline',
        raw: { job: 'j', waitHealthy: true, minHealthyTime: '0s', healthyDeadline: '0s', yes: true },
        expectedErr: 'Invalid -healthy-deadline value "0s": duration must be greater than zero',
      },
      {
        name: 'min healthy time past the deadline',
        raw: { job: 'j', waitHealthy: true, minHealthyTime: '6m', yes: true },
        expectedErr:
          'Invalid -min-healthy-time value "6m": minimum healthy time 6m0s must be less than -healthy-deadline 5m0s',
      },
      {
        name: 'min healthy time equal to the deadline',
        raw: { job: 'j', waitHealthy: true, minHealthyTime: '60s', healthyDeadline: '1m', yes: true },
        expectedErr:
          'Invalid -min-healthy-time value "60s": minimum healthy time 1m0s must be less than -healthy-deadline 1m0s',
      },
      {
        name: 'timings without the gate',
        raw: { job: 'j', healthyDeadline: '1m', yes: true },
        expectedErr: 'The -healthy-deadline option can only be used with -wait-healthy',
      },
    ])('fails: $name', ({ raw, expectedErr }) => {
      // Arrange / Act
      const message = messageOf(() => validateRestartInput(raw, headless));

      // Assert
      expect(message).toBe(expectedErr);
    });

    it('names the field of a value error', () => {
      // Arrange / Act
      let field: string | undefined;
      try {
        validateRestartInput({ job: 'j', batchSize: 'x', yes: true }, headless);
      } catch (err) {
        field = (err as RestartValidationError).field;
      }

      // Assert
      expect(field).toBe('batchSize');
    });

    it('either accepts or refuses arbitrary JSON with a RestartValidationError, never anything else', () => {
      // Arrange
      const arbitrary = fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            job: fc.oneof(fc.string(), fc.integer()),
            batchSize: fc.oneof(fc.string(), fc.integer(), fc.double()),
            batchWait: fc.string(),
            onError: fc.constantFrom('ask', 'fail', 'x'),
            yes: fc.oneof(fc.boolean(), fc.string()),
            tasks: fc.array(fc.string()),
          },
          { requiredKeys: [] },
        ),
      );

      // Act / Assert
      fc.assert(
        fc.property(arbitrary, (raw) => {
          try {
            const options = validateRestartInput(raw, headless);
            expect(JSON.parse(JSON.stringify(options))).toEqual(options);
          } catch (err) {
            expect(err).toBeInstanceOf(RestartValidationError);
          }
        }),
      );
    });
  });

  describe('toRestartInput', () => {
    it.each([
      { name: 'leaves startedBy out when nobody is named', startedBy: undefined, expected: undefined },
      { name: 'carries who started the run', startedBy: 'alice@laptop', expected: 'alice@laptop' },
      {
        name: 'cuts a long name to what the input takes',
        startedBy: `${'a'.repeat(250)}@host`,
        expected: 'a'.repeat(MAX_STARTED_BY_LENGTH),
      },
    ])('$name', ({ startedBy, expected }) => {
      // Arrange
      const options = validateRestartInput({ job: 'example' }, { interactive: true });

      // Act
      const input = toRestartInput(options, startedBy);

      // Assert
      expect(input.startedBy).toBe(expected);
      expect(validateRestartInput(input, { interactive: true })).toEqual(options);
    });
  });

  describe('restartInputJsonSchema', () => {
    it('describes every field, requires job and refuses unknown fields', () => {
      // Arrange / Act
      const schema = restartInputJsonSchema();
      const { properties } = schema as { properties: { batchSize: unknown } };

      // Assert
      expect(schema).toMatchObject({ type: 'object', required: ['job'], additionalProperties: false });
      expect(Object.keys(properties)).toEqual([
        'job',
        'namespace',
        'region',
        'batchSize',
        'batchWait',
        'onError',
        'yes',
        'groups',
        'tasks',
        'allTasks',
        'reschedule',
        'noShutdownDelay',
        'verbose',
        'replacementTimeout',
        'maxErrors',
        'dryRun',
        'waitHealthy',
        'minHealthyTime',
        'healthyDeadline',
        'startedBy',
        ...WINDOW_INPUT_FIELDS,
      ]);
      expect(properties.batchSize).toMatchObject({
        type: ['string', 'number'],
      });
    });
  });
});
