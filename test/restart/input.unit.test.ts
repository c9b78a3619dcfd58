import fc from 'fast-check';
import { RestartValidationError } from '../../lib/restart/errors';
import {
  MAX_STARTED_BY_LENGTH,
  restartInputJsonSchema,
  toRestartInput,
  validateRestartInput,
} from '../../lib/restart/input';
import { restartOptions, WINDOW_INPUT_FIELDS } from '../fixtures/restart-options';
import { refusal } from './helpers/refusal';

/** A refused `-yes` input for job "j" with `fields` beside. */
const confirmedRefusal = (name: string, fields: Record<string, unknown>, expectedErr: string) =>
  refusal(name, { job: 'j', ...fields, yes: true }, expectedErr);
/** A refused `-wait-healthy -yes` input for job "j", with `timings` beside. */
const gatedRefusal = (name: string, timings: Record<string, string>, expectedErr: string) =>
  confirmedRefusal(name, { waitHealthy: true, ...timings }, expectedErr);

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
      refusal(
        'not an object',
        'example',
        'Invalid input: got "example", expected a JSON object with a "job" field',
      ),
      refusal('null', null, 'Invalid input: got null, expected a JSON object with a "job" field'),
      refusal(
        'missing job',
        { yes: true },
        'Invalid input field "job": got nothing, expected a job ID or ID prefix (non-empty string)',
      ),
      refusal(
        'empty job',
        { job: '  ' },
        'Invalid input field "job": got "  ", expected a job ID or ID prefix (non-empty string)',
      ),
      refusal(
        'string boolean',
        { job: 'j', yes: 'true' },
        'Invalid input field "yes": got "true", expected true or false',
      ),
      refusal(
        'boolean batch size',
        { job: 'j', batchSize: true },
        'Invalid input field "batchSize": got true, expected n or n% (string or integer), e.g. "2" or "25%"',
      ),
      refusal(
        'number in groups',
        { job: 'j', groups: ['a', 3] },
        'Invalid input field "groups[1]": got 3, expected a string',
      ),
      refusal(
        'unknown field',
        { job: 'j', batch_size: '2' },
        'Unknown input field "batch_size": allowed fields are job, namespace, region, batchSize, batchWait, onError, yes, groups, tasks, allTasks, reschedule, noShutdownDelay, verbose, replacementTimeout, maxErrors, dryRun, waitHealthy, minHealthyTime, healthyDeadline, startedBefore, stopOnAlarms, bakeTime, reason, startedBy, windowEnd, windowDuration, trigger, scheduleName, scheduledTime, resumeNextWindow, fleet, scope',
      ),
      refusal(
        'startedBy past 200 characters',
        { job: 'j', startedBy: 'x'.repeat(201) },
        `Invalid input field "startedBy": got "${'x'.repeat(201)}", expected who or what started the run, shown with its questions in chat (string, at most 200 characters)`,
      ),
      // Nomad's checks 3-9, in order, with Nomad's messages.
      confirmedRefusal(
        'decimal batch size number',
        { batchSize: 1.5 },
        'Invalid -batch-size value "1.5": batch size must be an integer or a percentage',
      ),
      confirmedRefusal(
        'negative batch size number',
        { batchSize: -1 },
        'Invalid -batch-size value "-1": batch size must be an integer or a percentage',
      ),
      confirmedRefusal(
        'zero batch size',
        { batchSize: '0%' },
        'Invalid -batch-size value "0%": number value must be greater than zero',
      ),
      refusal(
        'ask wait without approvals',
        { job: 'j', batchWait: 'ask' },
        'Invalid -batch-wait value "ask": "ask" cannot be used when terminal is not interactive',
      ),
      confirmedRefusal(
        'bad wait',
        { batchWait: '10' },
        'Invalid -batch-wait value "10": time: missing unit in duration "10"',
      ),
      refusal(
        'ask on error without approvals',
        { job: 'j' },
        'Invalid -on-error value "ask": "ask" cannot be used when terminal is not interactive',
      ),
      confirmedRefusal(
        'bad on error',
        { onError: 'Fail' },
        'Invalid -on-error value "Fail": valid options are "ask" and "fail"',
      ),
      confirmedRefusal(
        'all tasks with task',
        { allTasks: true, tasks: ['t'] },
        'The -all-tasks option cannot be used with -task',
      ),
      confirmedRefusal(
        'reschedule with task',
        { reschedule: true, tasks: ['t'] },
        'The -reschedule option cannot be used with -task',
      ),
      confirmedRefusal(
        'zero timeout',
        { replacementTimeout: '-5s' },
        'Invalid -replacement-timeout value "-5s": duration must be greater than zero',
      ),
      confirmedRefusal(
        'bad max errors',
        { maxErrors: '1.5' },
        'Invalid -max-errors value "1.5": max errors must be an integer or a percentage',
      ),
      confirmedRefusal(
        'string waitHealthy',
        { waitHealthy: 'yes' },
        'Invalid input field "waitHealthy": got "yes", expected true or false',
      ),
      gatedRefusal(
        'bad min healthy time',
        { minHealthyTime: '10' },
        'Invalid -min-healthy-time value "10": time: missing unit in duration "10"',
      ),
      gatedRefusal(
        'bad healthy deadline',
        { healthyDeadline: '5 m' },
        'Invalid -healthy-deadline value "5 m": time: unknown unit " m" in duration "5 m"',
      ),
      gatedRefusal(
        'negative min healthy time',
        { minHealthyTime: '-1s' },
        'Invalid -min-healthy-time value "-1s": duration must not be negative',
      ),
      gatedRefusal(
        'zero healthy deadline',
        { minHealthyTime: '0s', healthyDeadline: '0s' },
        'Invalid -healthy-deadline value "0s": duration must be greater than zero',
      ),
      gatedRefusal(
        'min healthy time past the deadline',
        { minHealthyTime: '6m' },
        'Invalid -min-healthy-time value "6m": minimum healthy time 6m0s must be less than -healthy-deadline 5m0s',
      ),
      gatedRefusal(
        'min healthy time equal to the deadline',
        { minHealthyTime: '60s', healthyDeadline: '1m' },
        'Invalid -min-healthy-time value "60s": minimum healthy time 1m0s must be less than -healthy-deadline 1m0s',
      ),
      confirmedRefusal(
        'an alarm ARN of another service',
        { stopOnAlarms: ['arn:aws:sns:eu-west-1:123456789012:alarms'] },
        'Invalid -stop-on-alarm value "arn:aws:sns:eu-west-1:123456789012:alarms": an ARN must be a CloudWatch alarm ARN, arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>',
      ),
      confirmedRefusal(
        'a bake with nothing to watch',
        { bakeTime: '2m' },
        'The -bake-time option can only be used with -stop-on-alarm or -wait-healthy: there is nothing to watch',
      ),
      confirmedRefusal(
        'timings without the gate',
        { healthyDeadline: '1m' },
        'The -healthy-deadline option can only be used with -wait-healthy',
      ),
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

  describe('validateRestartInput: startedBefore', () => {
    const NOW = Date.parse('2026-12-07T12:00:00Z');

    it.each([
      {
        name: 'an RFC 3339 time as given',
        fields: { startedBefore: '2026-12-07T10:00:00+01:00' },
        expected: '2026-12-07T09:00:00.000Z',
      },
      {
        name: 'a duration counted back from the run start',
        fields: { startedBefore: '2h' },
        expected: '2026-12-07T10:00:00.000Z',
      },
      {
        name: "a duration counted back from a schedule's scheduledTime",
        fields: { startedBefore: '2h', scheduledTime: '2026-12-07T11:00:00Z' },
        expected: '2026-12-07T09:00:00.000Z',
      },
    ])('resolves $name into an absolute time', ({ fields, expected }) => {
      // Act
      const options = validateRestartInput({ job: 'j', yes: true, ...fields }, { ...headless, now: NOW });

      // Assert
      expect(new Date(options.startedBefore ?? Number.NaN).toISOString()).toBe(expected);
    });

    it("accepts a time after a schedule's scheduledTime that is not after the run's start", () => {
      // Arrange: a variable changed after the schedule fired, before its (flexible) run started.
      const input = {
        job: 'j',
        yes: true,
        startedBefore: '2026-12-07T11:30:00Z',
        scheduledTime: '2026-12-07T11:00:00Z',
      };

      // Act
      const options = validateRestartInput(input, { ...headless, now: NOW });

      // Assert
      expect(options.startedBefore).toBe(Date.parse('2026-12-07T11:30:00Z'));
    });

    it.each([
      refusal(
        'neither a time nor a duration',
        { job: 'j', yes: true, startedBefore: 'last tuesday' },
        'Invalid -started-before value "last tuesday": expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      ),
      refusal(
        'a time in the future',
        { job: 'j', yes: true, startedBefore: '2026-12-08T00:00:00Z' },
        'Invalid -started-before value "2026-12-08T00:00:00Z": the time 2026-12-08T00:00:00.000Z is in the future (it is 2026-12-07T12:00:00.000Z); no allocation can have started after it yet',
      ),
      refusal(
        'a number',
        { job: 'j', yes: true, startedBefore: 7200 },
        'Invalid input field "startedBefore": got 7200, expected an RFC 3339 time with a zone, e.g. "2026-12-07T09:00:00Z", or a Go duration meaning that long before now, e.g. "2h" (string)',
      ),
    ])('fails: $name', ({ raw, expectedErr }) => {
      // Act
      const message = messageOf(() => validateRestartInput(raw, { ...headless, now: NOW }));

      // Assert
      expect(message).toBe(expectedErr);
    });

    it('travels in the execution input as RFC 3339 with milliseconds, and reads back unchanged later', () => {
      // Arrange: resolved at 12:00; the input is validated again an hour later (a resumed run).
      const options = validateRestartInput(
        { job: 'j', startedBefore: '90m' },
        { interactive: true, now: NOW },
      );

      // Act
      const input = toRestartInput(options);
      const later = validateRestartInput(input, { interactive: true, now: NOW + 3_600_000 });

      // Assert
      expect(input.startedBefore).toBe('2026-12-07T10:30:00.000Z');
      expect(later).toEqual(options);
    });
  });

  describe('toRestartInput', () => {
    it('carries the alarms and the bake, and they read back unchanged', () => {
      // Arrange
      const arn = 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api-p99';
      const options = validateRestartInput(
        { job: 'j', stopOnAlarms: ['api-5xx', arn], bakeTime: '2m' },
        { interactive: true },
      );

      // Act
      const input = toRestartInput(options);

      // Assert
      expect(options).toMatchObject({ stopOnAlarms: ['api-5xx', arn], bakeTimeMs: 120_000 });
      expect(input).toMatchObject({ stopOnAlarms: ['api-5xx', arn], bakeTime: '2m0s' });
      expect(validateRestartInput(input, { interactive: true })).toEqual(options);
    });

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
        'startedBefore',
        'stopOnAlarms',
        'bakeTime',
        'reason',
        'startedBy',
        ...WINDOW_INPUT_FIELDS,
        'fleet',
        'scope',
      ]);
      expect(properties.batchSize).toMatchObject({
        type: ['string', 'number'],
      });
    });
  });
});
