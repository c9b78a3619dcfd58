import { parseGoBool } from '../../lib/go/strconv';

describe('parseGoBool', () => {
  it.each([
    ['1', true],
    ['t', true],
    ['T', true],
    ['TRUE', true],
    ['true', true],
    ['True', true],
    ['0', false],
    ['f', false],
    ['F', false],
    ['FALSE', false],
    ['false', false],
    ['False', false],
    ['tRUE', undefined],
    ['yes', undefined],
    ['', undefined],
  ])('parses %j as %j', (value, expected) => {
    // Arrange / Act / Assert
    expect(parseGoBool(value)).toBe(expected);
  });
});
