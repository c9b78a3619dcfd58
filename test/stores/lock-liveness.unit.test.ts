import type { Variable } from '../../lib/nomad/variables';
import { holdsJobLock } from '../../lib/stores/lock-liveness';

/** The lock variable as a reader sees it: items naming `runId`, last written at `index`. */
const lockNaming = (runId: string, index: number | undefined): Variable => ({
  Namespace: 'default',
  Path: 'nomad-restart/locks/web',
  Items: { runId, engine: 'local' },
  ...(index === undefined ? {} : { ModifyIndex: index }),
});

describe('holdsJobLock', () => {
  it.each([
    {
      name: 'a run that took the lock, then wrote its provisional record',
      lock: lockNaming('run-1', 10),
      history: { index: 11, ended: false },
      expected: true,
    },
    {
      name: 'a run whose lock was written after its record (released, or freed by its TTL)',
      lock: lockNaming('run-1', 12),
      history: { index: 11, ended: false },
      expected: false,
    },
    {
      name: 'a run whose record is final, its release still to come',
      lock: lockNaming('run-1', 10),
      history: { index: 12, ended: true },
      expected: false,
    },
    {
      name: 'a run the lock variable does not name',
      lock: lockNaming('run-2', 10),
      history: { index: 11, ended: false },
      expected: false,
    },
    {
      name: 'a job with no lock variable',
      lock: undefined,
      history: { index: 11, ended: false },
      expected: false,
    },
    {
      name: 'a run named by a lock without an index (the name is all there is)',
      lock: lockNaming('run-1', undefined),
      history: { index: 11, ended: false },
      expected: true,
    },
    {
      name: 'a run named by the lock of a job with no history (the name is all there is)',
      lock: lockNaming('run-1', 10),
      history: { index: undefined, ended: false },
      expected: true,
    },
  ])('answers $expected for $name', ({ lock, history, expected }) => {
    // Act
    const holds = holdsJobLock('run-1', lock, history);

    // Assert
    expect(holds).toBe(expected);
  });
});
