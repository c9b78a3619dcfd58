import { messageOf } from '../../lib/http/error-text';

describe('messageOf', () => {
  it.each([
    { name: 'an Error', err: new Error('boom'), expected: 'boom' },
    {
      name: 'an error-like object from another realm',
      err: { message: 'connect ECONNREFUSED' },
      expected: 'connect ECONNREFUSED',
    },
    {
      name: 'an AggregateError without a message',
      err: new AggregateError([
        new Error('connect ECONNREFUSED ::1:4646'),
        new Error('connect ECONNREFUSED 127.0.0.1:4646'),
      ]),
      expected: 'connect ECONNREFUSED ::1:4646; connect ECONNREFUSED 127.0.0.1:4646',
    },
    { name: 'a string', err: 'plain', expected: 'plain' },
  ])('reads $name', ({ err, expected }) => {
    // Arrange / Act / Assert
    expect(messageOf(err)).toBe(expected);
  });
});
