// Scenario: the names a Nomad client gives what it registers in Consul, as a real Nomad 2.0 agent
// registered them in Consul v1.22 (job `obs`: group `g`, group service `obs-group` on port `http`,
// task `server` with service `obs-task`, and an unnamed tcp check).
import { consulCheckName, groupServiceId, taskServiceId } from '../../lib/consul';

const ALLOC = '1223e967-e3c7-1f51-11a8-37b3b4bcbc22';

describe('service IDs', () => {
  it.each([
    {
      name: 'a group service',
      id: groupServiceId(ALLOC, 'g', 'obs-group', 'http'),
      expected: `_nomad-task-${ALLOC}-group-g-obs-group-http`,
    },
    {
      name: 'a task service',
      id: taskServiceId(ALLOC, 'server', 'obs-task', 'http'),
      expected: `_nomad-task-${ALLOC}-server-obs-task-http`,
    },
  ])('names $name as Nomad does', ({ id, expected }) => {
    // Assert
    expect(id).toBe(expected);
  });

  it.each([
    { name: 'a named check', check: 'group-http', expected: 'group-http' },
    { name: 'an unnamed check', check: '', expected: 'service: "obs-group" check' },
    { name: 'a check without a Name field', check: undefined, expected: 'service: "obs-group" check' },
  ])('names $name as Consul shows it', ({ check, expected }) => {
    // Act
    const name = consulCheckName(check, 'obs-group');

    // Assert
    expect(name).toBe(expected);
  });
});
