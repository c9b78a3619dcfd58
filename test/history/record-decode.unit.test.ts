import { encodeRecord } from '../../lib/history/items';
import type { RunRecord } from '../../lib/history/record';
import { decodeRecord } from '../../lib/history/record-decode';
import { boundRecordErrors } from '../../lib/history/record-errors';
import { provisionalRecord, runIdOf, runRecord } from '../fixtures/run-records';

describe('decodeRecord', () => {
  it.each([
    { name: 'a final record', record: runRecord(1) },
    { name: 'a provisional record', record: provisionalRecord(1) },
    {
      name: 'a fleet’s record',
      record: runRecord(1, { kind: 'fleet', jobId: '', jobOutcomes: { succeeded: 12, failed: 1 } }),
    },
    {
      name: 'an AWS run’s record',
      record: runRecord(1, { engine: 'aws', executionArn: 'arn:aws:states:eu-west-1:1:execution:sm:x' }),
    },
  ])('reads back $name as written', ({ record }) => {
    // Act
    const decoded = decodeRecord(record.runId, encodeRecord(record));

    // Assert
    expect(decoded).toEqual(record);
  });

  const valid = JSON.parse(encodeRecord(runRecord(1))) as Record<string, unknown>;
  const without = (key: keyof RunRecord) => JSON.stringify({ ...valid, [key]: undefined });
  it.each([
    { name: 'not JSON', value: '{"version":1' },
    { name: 'not an object', value: '[1]' },
    { name: 'another version', value: JSON.stringify({ ...valid, version: 2 }) },
    { name: 'another run’s record', value: encodeRecord(runRecord(2)) },
    { name: 'no outcome', value: without('outcome') },
    { name: 'an unknown outcome', value: JSON.stringify({ ...valid, outcome: 'exploded' }) },
    {
      name: 'a count that is not a whole number',
      value: JSON.stringify({ ...valid, counts: { planned: 1.5 } }),
    },
    { name: 'an error that is not a string', value: JSON.stringify({ ...valid, errors: [42] }) },
    { name: 'no start', value: without('startedAt') },
    { name: 'an end that is text', value: JSON.stringify({ ...valid, endedAt: 'yesterday' }) },
    { name: 'an unknown engine', value: JSON.stringify({ ...valid, engine: 'cron' }) },
    {
      name: 'a fleet’s job outcome of running',
      value: JSON.stringify({ ...valid, jobOutcomes: { running: 1 } }),
    },
  ])('refuses $name', ({ value }) => {
    // Act
    const decoded = decodeRecord(runIdOf(1), value);

    // Assert
    expect(decoded).toBeUndefined();
  });
});

describe('boundRecordErrors', () => {
  it('keeps the first three errors, counts the others, and cuts a long one with …', () => {
    // Arrange
    const errors = ['one', 'x'.repeat(301), 'three', 'four', 'five'];

    // Act
    const bounded = boundRecordErrors(errors, 2);

    // Assert
    expect(bounded).toEqual({ errors: ['one', `${'x'.repeat(299)}…`, 'three'], omittedErrors: 4 });
  });

  it('cuts by code point, never inside a character outside the BMP', () => {
    // Arrange: 😀 is two UTF-16 code units
    const error = '😀'.repeat(400);

    // Act
    const [cut] = boundRecordErrors([error]).errors;

    // Assert
    expect(cut).toBe(`${'😀'.repeat(299)}…`);
  });
});
