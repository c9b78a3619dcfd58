import {
  isPermissionDenied,
  isTransientNomadError,
  NomadAbortedError,
  NomadClientInitError,
  NomadConnectionError,
  NomadDecodeError,
  NomadError,
  NomadTimeoutError,
  NomadTlsError,
  UnexpectedResponseError,
} from '../../lib/nomad';

/** One answer Nomad gave (status and body) and the message its CLI prints for it. */
const row = (status: number, body: string, expected: string) => ({ status, body, expected });

describe('UnexpectedResponseError', () => {
  it.each([
    row(404, 'job not found', 'Unexpected response code: 404 (job not found)'),
    row(403, 'Permission denied\n', 'Unexpected response code: 403 (Permission denied)'),
    row(502, '', 'Unexpected response code: 502'),
    row(503, '  \n', 'Unexpected response code: 503'),
  ])('formats $status with body $body like Nomad', ({ status, body, expected }) => {
    // Arrange / Act
    const err = new UnexpectedResponseError(status, body);

    // Assert
    expect(err.message).toBe(expected);
    expect(err.statusCode).toBe(status);
    expect(err.body).toBe(body.trim());
    expect(err.name).toBe('UnexpectedResponseError');
    expect(err).toBeInstanceOf(NomadError);
  });
});

describe('NomadClientInitError', () => {
  it('prefixes the reason with Nomad wording', () => {
    // Arrange / Act
    const err = new NomadClientInitError('bad thing');

    // Assert
    expect(err.message).toBe('Error initializing client: bad thing');
    expect(err.reason).toBe('bad thing');
  });
});

describe('isPermissionDenied', () => {
  it.each([
    {
      name: '403 Permission denied',
      err: new UnexpectedResponseError(403, 'Permission denied'),
      expected: true,
    },
    { name: 'wrapped text', err: new Error('rpc error: Permission denied'), expected: true },
    { name: '404', err: new UnexpectedResponseError(404, 'job not found'), expected: false },
    { name: 'not an error', err: 'Permission denied', expected: false },
  ])('answers $expected for $name', ({ err, expected }) => {
    // Arrange / Act / Assert
    expect(isPermissionDenied(err)).toBe(expected);
  });
});

describe('isTransientNomadError', () => {
  it.each([
    { name: 'connection refused', err: new NomadConnectionError('x', false, 'ECONNREFUSED'), expected: true },
    { name: 'connection reset', err: new NomadConnectionError('x', true, 'ECONNRESET'), expected: true },
    { name: 'timeout', err: new NomadTimeoutError('x'), expected: true },
    { name: '502', err: new UnexpectedResponseError(502, ''), expected: true },
    { name: '503', err: new UnexpectedResponseError(503, 'busy'), expected: true },
    { name: '504', err: new UnexpectedResponseError(504, ''), expected: true },
    {
      name: '500 No cluster leader',
      err: new UnexpectedResponseError(500, 'No cluster leader'),
      expected: true,
    },
    { name: '500 rpc error', err: new UnexpectedResponseError(500, 'rpc error: EOF'), expected: true },
    { name: '500 other', err: new UnexpectedResponseError(500, 'job not found'), expected: false },
    {
      name: '500 No path to region',
      err: new UnexpectedResponseError(500, 'No path to region'),
      expected: false,
    },
    { name: '403', err: new UnexpectedResponseError(403, 'Permission denied'), expected: false },
    { name: 'abort', err: new NomadAbortedError('x'), expected: false },
    { name: 'decode', err: new NomadDecodeError('x'), expected: false },
    { name: 'tls', err: new NomadTlsError('x'), expected: false },
    { name: 'plain error', err: new Error('ECONNREFUSED'), expected: false },
  ])('answers $expected for $name', ({ err, expected }) => {
    // Arrange / Act / Assert
    expect(isTransientNomadError(err)).toBe(expected);
  });

  it('gives every error class a stable name', () => {
    // Arrange
    const errors = [
      new NomadError('x'),
      new UnexpectedResponseError(500, ''),
      new NomadConnectionError('x', true, undefined),
      new NomadTlsError('x'),
      new NomadTimeoutError('x'),
      new NomadDecodeError('x'),
      new NomadAbortedError('x'),
      new NomadClientInitError('x'),
    ];

    // Act
    const names = errors.map((e) => e.name);

    // Assert
    expect(names).toEqual([
      'NomadError',
      'UnexpectedResponseError',
      'NomadConnectionError',
      'NomadTlsError',
      'NomadTimeoutError',
      'NomadDecodeError',
      'NomadAbortedError',
      'NomadClientInitError',
    ]);
  });
});
