import type { AllocListStub } from '../../lib/nomad/types';
import type { BatchError } from '../../lib/restart/allocation-errors';
import {
  cutBatches,
  printsBatchHeaders,
  resolveBatchSize,
  resolveMaxErrors,
} from '../../lib/restart/batches';
import { type BatchDecision, type DecideInput, decideAfterBatch } from '../../lib/restart/decide';
import { filterAllocations } from '../../lib/restart/filter';

const recoverable: BatchError = {
  message: 'Error restarting allocation "a": Unexpected response code: 502',
  unrecoverable: false,
};
const placement: BatchError = {
  message: 'Error restarting allocation "a": Evaluation ...',
  unrecoverable: true,
};
const denied: BatchError = {
  message: 'Error restarting allocation "a": Unexpected response code: 403 (Permission denied)',
  unrecoverable: false,
};

const base: DecideInput = {
  isLastBatch: false,
  batchErrors: [],
  onError: 'ask',
  yes: false,
  batchWait: { kind: 'duration', ns: 0 },
  failedAllocations: 0,
};

describe('decide', () => {
  describe('decideAfterBatch', () => {
    it.each<{ name: string; input: Partial<DecideInput>; expected: BatchDecision }>([
      {
        name: 'finishes after the last batch, even with errors and fail',
        input: { isLastBatch: true, batchErrors: [recoverable], onError: 'fail' },
        expected: { action: 'finish' },
      },
      {
        name: 'stops on error with -on-error=fail',
        input: { batchErrors: [recoverable], onError: 'fail', yes: true },
        expected: { action: 'stop', reason: 'error' },
      },
      {
        name: 'stops on a placement failure with -yes',
        input: { batchErrors: [placement], yes: true },
        expected: { action: 'stop', reason: 'unrecoverable-error' },
      },
      {
        name: 'stops on Permission denied text with -yes',
        input: { batchErrors: [denied], yes: true },
        expected: { action: 'stop', reason: 'unrecoverable-error' },
      },
      {
        name: 'goes on after a recoverable error with -yes',
        input: { batchErrors: [recoverable], yes: true },
        expected: { action: 'next' },
      },
      {
        name: 'waits after a recoverable error with -yes and a wait',
        input: { batchErrors: [recoverable], yes: true, batchWait: { kind: 'duration', ns: 5e9 } },
        expected: { action: 'wait', ns: 5e9 },
      },
      {
        name: 'asks on a recoverable error without -yes',
        input: { batchErrors: [recoverable] },
        expected: { action: 'ask', outcome: 'recoverable', batchWaitAsk: false },
      },
      {
        name: 'asks on an unrecoverable error without -yes',
        input: { batchErrors: [placement] },
        expected: { action: 'ask', outcome: 'unrecoverable', batchWaitAsk: false },
      },
      {
        name: 'asks between batches when the wait is ask',
        input: { batchWait: { kind: 'ask' } },
        expected: { action: 'ask', outcome: 'ok', batchWaitAsk: true },
      },
      {
        name: 'never asks with -yes and wait ask',
        input: { batchWait: { kind: 'ask' }, yes: true },
        expected: { action: 'next' },
      },
      { name: 'goes on without errors', input: {}, expected: { action: 'next' } },
      {
        name: 'does not sleep on a negative wait',
        input: { batchWait: { kind: 'duration', ns: -1e9 } },
        expected: { action: 'next' },
      },
      {
        name: 'stops with -yes once more than max errors failed',
        input: { yes: true, batchErrors: [recoverable], maxErrors: 1, failedAllocations: 2 },
        expected: { action: 'stop', reason: 'max-errors' },
      },
      {
        name: 'goes on with -yes at exactly max errors',
        input: { yes: true, batchErrors: [recoverable], maxErrors: 2, failedAllocations: 2 },
        expected: { action: 'next' },
      },
      {
        name: 'leaves max errors to the human without -yes',
        input: { batchErrors: [recoverable], maxErrors: 0, failedAllocations: 1 },
        expected: { action: 'ask', outcome: 'recoverable', batchWaitAsk: false },
      },
      {
        name: 'asks (not fails) with ask and errors',
        input: { batchErrors: [recoverable], batchWait: { kind: 'ask' } },
        expected: { action: 'ask', outcome: 'recoverable', batchWaitAsk: true },
      },
    ])('$name', ({ input, expected }) => {
      // Arrange / Act
      const decision = decideAfterBatch({ ...base, ...input });

      // Assert
      expect(decision).toEqual(expected);
    });
  });
});

describe('batches', () => {
  describe('resolveBatchSize', () => {
    it.each([
      { size: { value: 1, percent: false }, eligible: 5, expected: 1 },
      { size: { value: 10, percent: false }, eligible: 5, expected: 10 },
      { size: { value: 50, percent: true }, eligible: 5, expected: 3 },
      { size: { value: 1, percent: true }, eligible: 1000, expected: 10 },
      { size: { value: 1, percent: true }, eligible: 7, expected: 1 },
      { size: { value: 200, percent: true }, eligible: 5, expected: 10 },
      { size: { value: 33, percent: true }, eligible: 3, expected: 1 },
      { size: { value: 34, percent: true }, eligible: 3, expected: 2 },
    ])(
      'resolves $size.value (percent $size.percent) of $eligible to $expected',
      ({ size, eligible, expected }) => {
        // Assert
        expect(resolveBatchSize(size, eligible)).toBe(expected);
      },
    );

    it('takes the percentage of eligible allocations, not of those already replaced', () => {
      // Arrange: 4 running allocations, 2 of them already replaced.
      const stubs: AllocListStub[] = ['a', 'b', 'c', 'd'].map((id, i) => ({
        ID: id,
        JobID: 'j',
        TaskGroup: 'g',
        DesiredStatus: 'run',
        ClientStatus: 'running',
        CreateIndex: 10 - i,
        ModifyIndex: 1,
        ...(i < 2 ? { NextAllocation: `${id}2` } : {}),
      }));

      // Act
      const { eligible } = filterAllocations(stubs, new Map(), { groups: [], tasks: [] });
      const size = resolveBatchSize({ value: 50, percent: true }, eligible.length);

      // Assert
      expect(eligible.map((a) => a.id)).toEqual(['c', 'd']);
      expect(size).toBe(1);
    });
  });

  describe('resolveMaxErrors', () => {
    it.each([
      { maxErrors: { value: 0, percent: false }, planned: 10, expected: 0 },
      { maxErrors: { value: 3, percent: false }, planned: 10, expected: 3 },
      { maxErrors: { value: 10, percent: true }, planned: 15, expected: 2 },
    ])('resolves $maxErrors.value of $planned to $expected', ({ maxErrors, planned, expected }) => {
      // Assert
      expect(resolveMaxErrors(maxErrors, planned)).toBe(expected);
    });
  });

  describe('cutBatches', () => {
    it('cuts consecutive batches, the last one shorter', () => {
      // Assert
      expect(cutBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
      expect(cutBatches([1, 2], 10)).toEqual([[1, 2]]);
      expect(cutBatches([], 3)).toEqual([]);
    });

    it('refuses a batch size below 1', () => {
      // Assert
      expect(() => cutBatches([1], 0)).toThrow('batch size must be a positive integer, got 0');
    });
  });

  describe('printsBatchHeaders', () => {
    it('prints headers only for batches larger than one', () => {
      // Assert
      expect([1, 2].map(printsBatchHeaders)).toEqual([false, true]);
    });
  });
});
