import {
  noNodeMatched,
  sanitizeNodePrefix,
  severalNodesMatched,
  tooShortNodeId,
} from '../../lib/fleet/node-prefix';

describe('node-prefix', () => {
  describe('sanitizeNodePrefix', () => {
    it.each([
      { prefix: '9a1', expected: '9a' },
      { prefix: '9a1f', expected: '9a1f' },
      { prefix: '9a1f2b3c-', expected: '9a1f2b3c-' },
      { prefix: '9a1f2b3c-1', expected: '9a1f2b3c-' },
      { prefix: '9a1f2b3c-1d', expected: '9a1f2b3c-1d' },
    ])('queries $expected for $prefix, as Nomad trims an odd length', ({ prefix, expected }) => {
      // Arrange / Act
      const sanitized = sanitizeNodePrefix(prefix);

      // Assert
      expect(sanitized).toBe(expected);
    });
  });

  describe('tooShortNodeId', () => {
    it("refuses one character with Nomad's words, and accepts two", () => {
      // Arrange / Act / Assert
      expect(tooShortNodeId('9')).toBe('Identifier must contain at least two characters.');
      expect(tooShortNodeId('9a')).toBeUndefined();
    });
  });

  describe('messages', () => {
    it('says no node matched, quoting the prefix as Go does', () => {
      // Arrange / Act / Assert
      expect(noNodeMatched('ff')).toBe('No node(s) with prefix "ff" found');
    });

    it("lists the nodes a prefix matched in Nomad's table", () => {
      // Arrange
      const nodes = [
        {
          ID: '9a1f0000-aaaa',
          Datacenter: 'dc1',
          Name: 'client-1',
          NodeClass: '',
          Drain: false,
          SchedulingEligibility: 'eligible',
          Status: 'ready',
        },
        {
          ID: '9a2b0000-bbbb',
          Datacenter: 'dc2',
          Name: 'client-22',
          NodeClass: 'gpu',
          Drain: true,
          SchedulingEligibility: 'ineligible',
          Status: 'ready',
        },
      ];

      // Act
      const message = severalNodesMatched(nodes);

      // Assert
      expect(message).toBe(
        [
          'Prefix matched multiple nodes',
          '',
          'ID        DC   Name       Class   Drain  Eligibility  Status',
          '9a1f0000  dc1  client-1   <none>  false  eligible     ready',
          '9a2b0000  dc2  client-22  gpu     true   ineligible   ready',
        ].join('\n'),
      );
    });
  });
});
