/**
 * The requests a paused local run waits for (lib/engines/local/pause-requests.ts), on this
 * process's lock alone (the shared lock off: no Nomad): a `resume` answers yes and a `stop` no,
 * each attributed and cleared; another `pause` is forgotten and the wait goes on; a request for
 * another run is never taken; the question's end (its timeout) ends the wait without an answer.
 */
import type { ControlRequest } from '../../../lib/control/requests';
import { pauseRequests } from '../../../lib/engines/local/pause-requests';
import { MemoryJobLock } from '../../../lib/stores/job-lock';
import { withoutSharedLock } from '../../fixtures/shared-lock-off';

const KEY = { namespace: 'default', jobId: 'web' };
const by = (verb: ControlRequest['verb'], at: number): ControlRequest => ({
  verb,
  requestedBy: 'alice@laptop',
  via: 'terminal',
  at,
});

withoutSharedLock();

/** A lock `run-1` holds, and the requests it waits on, polled every 5 ms. */
async function held() {
  const lock = new MemoryJobLock();
  await lock.acquire(KEY, { owner: 'run-1', ttlSeconds: 60 });
  return { lock, requests: pauseRequests(lock, undefined, 5) };
}

describe('pauseRequests', () => {
  it.each([
    ['resume', 'yes'],
    ['stop', 'no'],
  ] as const)('answers a %s with %s, attributed, and clears it', async (verb, answer) => {
    // Arrange
    const { lock, requests } = await held();
    await lock.requestControl(KEY, 'run-1', by(verb, 1));

    // Act
    const got = await requests.answer(KEY, 'run-1', new AbortController().signal);

    // Assert
    expect(got).toEqual({ answer, answeredBy: 'alice@laptop (terminal)' });
    expect(await lock.controlRequest(KEY, 'run-1')).toBeUndefined();
  });

  it('forgets another pause and goes on waiting for a resume', async () => {
    // Arrange
    const { lock, requests } = await held();
    await lock.requestControl(KEY, 'run-1', by('pause', 1));

    // Act
    const waiting = requests.answer(KEY, 'run-1', new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pauseLeft = await lock.controlRequest(KEY, 'run-1');
    await lock.requestControl(KEY, 'run-1', by('resume', 2));

    // Assert
    expect(pauseLeft).toBeUndefined();
    expect(await waiting).toEqual({ answer: 'yes', answeredBy: 'alice@laptop (terminal)' });
  });

  it('ends the wait without an answer when the question ends, taking no request for another run', async () => {
    // Arrange
    const { lock, requests } = await held();
    const ended = new AbortController();
    await lock.requestControl(KEY, 'run-1', by('resume', 1));

    // Act
    const waiting = requests.answer(KEY, 'run-2', ended.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    ended.abort();

    // Assert
    expect(await waiting).toBeUndefined();
    expect(await lock.controlRequest(KEY, 'run-1')).toEqual(by('resume', 1));
  });
});
