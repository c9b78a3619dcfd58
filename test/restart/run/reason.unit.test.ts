import { RestartValidationError } from '../../../lib/restart/errors';
import { toRestartInput, validateRestartInput } from '../../../lib/restart/input';
import { validateReason } from '../../../lib/restart/run/reason';

const TWO_HUNDRED = 'x'.repeat(200);

describe('validateReason', () => {
  it.each([
    { name: 'a ticket', text: 'INC-4711: rotate the TLS certificates' },
    { name: 'exactly 200 characters', text: TWO_HUNDRED },
    // 200 characters, 400 UTF-16 units: the bound counts what a reader sees.
    { name: '200 characters outside the BMP', text: '🔁'.repeat(200) },
  ])('accepts $name', ({ text }) => {
    // Act
    const reason = validateReason(text);

    // Assert
    expect(reason).toBe(text);
  });

  it.each([
    { name: 'empty', text: '', expectedErr: 'Invalid -reason value "": must not be empty' },
    { name: 'blank', text: '   ', expectedErr: 'Invalid -reason value "   ": must not be empty' },
    {
      name: 'longer than 200 characters',
      text: `${TWO_HUNDRED}y`,
      expectedErr: `Invalid -reason value "${TWO_HUNDRED}y": must be at most 200 characters, got 201`,
    },
    {
      name: 'two lines',
      text: 'INC-1\nrm -rf',
      expectedErr:
        'Invalid -reason value "INC-1\\nrm -rf": must be one line, without control characters (found "\\n")',
    },
    {
      name: 'an escape sequence',
      text: 'INC-1 \u001b[2J',
      expectedErr:
        'Invalid -reason value "INC-1 \\x1b[2J": must be one line, without control characters (found "\\x1b")',
    },
    {
      name: "Unicode's line separator",
      text: 'a\u2028b',
      expectedErr:
        'Invalid -reason value "a\\u2028b": must be one line, without control characters (found "\\u2028")',
    },
  ])('fails when -reason is $name', ({ text, expectedErr }) => {
    // Act
    const act = () => validateReason(text);

    // Assert
    expect(act).toThrow(RestartValidationError);
    expect(act).toThrow(expectedErr);
  });
});

describe('validateRestartInput', () => {
  it('keeps the input field reason in the options', () => {
    // Act
    const options = validateRestartInput(
      { job: 'web', yes: true, reason: 'INC-4711' },
      { interactive: false },
    );

    // Assert
    expect(options.reason).toBe('INC-4711');
  });

  it('fails when the input field reason is too long, naming the field', () => {
    // Act
    let caught: unknown;
    try {
      validateRestartInput({ job: 'web', yes: true, reason: `${TWO_HUNDRED}!` }, { interactive: false });
    } catch (err) {
      caught = err;
    }

    // Assert
    expect(caught).toBeInstanceOf(RestartValidationError);
    expect((caught as RestartValidationError).field).toBe('reason');
    expect((caught as Error).message).toContain('must be at most 200 characters, got 201');
  });

  it('carries the reason in the execution input a terminal starts (locally or on AWS)', () => {
    // Arrange
    const options = validateRestartInput(
      { job: 'web', yes: true, reason: 'INC-4711' },
      { interactive: false },
    );

    // Act
    const input = toRestartInput(options, 'alice@laptop');

    // Assert
    expect(input.reason).toBe('INC-4711');
    expect(validateRestartInput(input, { interactive: false }).reason).toBe('INC-4711');
  });

  it('fails when the input field reason is not a string', () => {
    // Act
    const act = () => validateRestartInput({ job: 'web', reason: 42 }, { interactive: false });

    // Assert
    expect(act).toThrow(
      `Invalid input field "reason": got 42, expected why the run was started, kept in the job's restart history: one line of at most 200 characters (string)`,
    );
  });
});
