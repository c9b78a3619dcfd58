/** Why Nomad placed a replacement, named in Nomad's own vocabulary. */
import type { AllocListStub } from '../../lib/nomad/types';
import { replacementCause } from '../../lib/restart/replacement-cause';

const stub = (extra: Partial<AllocListStub>): AllocListStub => ({
  ID: 'a',
  JobID: 'web',
  TaskGroup: 'g',
  DesiredStatus: 'stop',
  ClientStatus: 'complete',
  CreateIndex: 1,
  ModifyIndex: 2,
  ...extra,
});

describe('replacementCause', () => {
  it.each([
    {
      name: 'a stop asked to move it',
      replaced: stub({ DesiredTransition: { Migrate: true } }),
      cause: 'migration',
    },
    { name: 'a node lost', replaced: stub({ ClientStatus: 'lost' }), cause: 'replacement' },
    {
      name: 'a disconnect, even after a stop asked to move it',
      replaced: stub({ DesiredStatus: 'run', ClientStatus: 'unknown', DesiredTransition: { Migrate: true } }),
      cause: 'replacement',
    },
    { name: 'a failure', replaced: stub({ ClientStatus: 'failed' }), cause: 'reschedule' },
    {
      name: 'a reschedule request',
      replaced: stub({ DesiredTransition: { Reschedule: true } }),
      cause: 'reschedule',
    },
  ] as const)('names $name a $cause', ({ replaced, cause }) => {
    // Act / Assert
    expect(replacementCause(replaced)).toBe(cause);
  });
});
