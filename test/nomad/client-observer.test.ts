// Scenario: the Nomad client tells its observer of each attempt against a stand-in Nomad on
// 127.0.0.1, without changing the request: a held request is reported slow and then settled when
// its own time limit ends it, with the same error as without an observer.
import type { SlowRequest } from '../../lib/http/request-observer';
import { slowRequestObserver } from '../../lib/http/request-observer';
import { NomadClient, NomadTimeoutError } from '../../lib/nomad';
import { fakeNomadPerTest } from './helpers/fake-nomad';

describe('NomadClient observer', () => {
  const fake = fakeNomadPerTest();

  it('reports a request Nomad holds past the threshold, then its end, and the error is unchanged', async () => {
    // Arrange: Nomad never answers; the request's own limit (300 ms) ends it.
    const reports: { kind: string; slow: SlowRequest }[] = [];
    const client = NomadClient.create({
      address: fake.nomad.address,
      timeouts: { requestMs: 300 },
      retry: { attempts: 1 },
      observer: slowRequestObserver({
        afterMs: 100,
        onSlow: (slow) => reports.push({ kind: 'slow', slow }),
        onSettled: (slow) => reports.push({ kind: 'settled', slow }),
      }),
    });
    fake.nomad.setHandler(() => ({ hold: true }));

    // Act
    const err = await client
      .jobs()
      .info('web')
      .catch((e: unknown) => e);
    await client.close();

    // Assert
    expect(err).toBeInstanceOf(NomadTimeoutError);
    expect((err as Error).message).toBe(`GET ${fake.nomad.address}/v1/job/web: no response within 300 ms`);
    expect(reports.map((r) => [r.kind, r.slow.request])).toEqual([
      ['slow', `GET ${fake.nomad.address}/v1/job/web`],
      ['settled', `GET ${fake.nomad.address}/v1/job/web`],
    ]);
  });

  it('reports nothing for a request answered at once', async () => {
    // Arrange
    const reports: string[] = [];
    const client = NomadClient.create({
      address: fake.nomad.address,
      retry: { attempts: 1 },
      observer: slowRequestObserver({
        afterMs: 100,
        onSlow: (slow) => reports.push(slow.request),
        onSettled: (slow) => reports.push(slow.request),
      }),
    });
    fake.nomad.setHandler(() => ({ body: [] }));

    // Act
    await client.jobs().list({});
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.close();

    // Assert
    expect(reports).toEqual([]);
  });
});
