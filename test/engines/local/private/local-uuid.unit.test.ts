/**
 * Scenario: the local run's names are version 4 UUIDs of RFC 9562's variant, a new one each time,
 * with every random digit drawn from its whole range.
 */
import { localUuid } from '../../../../lib/engines/local/private/local-uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('localUuid', () => {
  it('makes distinct version 4 UUIDs whose digits cover their ranges', () => {
    // Act
    const uuids = Array.from({ length: 2000 }, () => localUuid());

    // Assert
    expect(uuids.filter((uuid) => !V4.test(uuid))).toEqual([]);
    expect(new Set(uuids).size).toBe(uuids.length);
    expect(new Set(uuids.map((uuid) => uuid.charAt(19)))).toEqual(new Set(['8', '9', 'a', 'b']));
    expect(new Set(uuids.map((uuid) => uuid.charAt(0))).size).toBe(16);
  });
});
