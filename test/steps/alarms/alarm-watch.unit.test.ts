import type { AlarmReader, AlarmReading } from '../../../lib/restart/alarms';
import { ALARM_POLL_MS, watchAlarms } from '../../../lib/steps/alarms/alarm-watch';
import { restartOptions } from '../../fixtures/restart-options';

const options = restartOptions('api', { stopOnAlarms: ['api-5xx'] });
const ok: AlarmReading = { name: 'api-5xx', state: 'OK', reason: 'fine', since: 1 };
const alarm: AlarmReading = { name: 'api-5xx', state: 'ALARM', reason: 'Threshold Crossed', since: 2 };

/** A reader answering `answers` in turn (the last one again), counting its reads. */
function readerOf(...answers: (AlarmReading | Error)[]): AlarmReader & { reads: number } {
  const reader = {
    reads: 0,
    read: async () => {
      const answer = answers[Math.min(reader.reads, answers.length - 1)];
      reader.reads += 1;
      if (answer instanceof Error) throw answer;
      return [answer as AlarmReading];
    },
  };
  return reader;
}

/** A sleep that records how long it was asked to wait and returns at once. */
function instantSleep() {
  const asked: number[] = [];
  return { asked, sleep: async (ms: number) => void asked.push(ms) };
}

describe('watchAlarms', () => {
  it('is off without -stop-on-alarm', () => {
    // Arrange, Act, Assert
    expect(
      watchAlarms({ alarms: readerOf(ok) }, restartOptions('api'), new AbortController().signal),
    ).toBeUndefined();
  });

  it('reads every poll interval and aborts the wait once an alarm fires', async () => {
    // Arrange
    const reader = readerOf(ok, ok, alarm);
    const { asked, sleep } = instantSleep();

    // Act
    const watch = watchAlarms({ alarms: reader, sleep }, options, new AbortController().signal);
    await new Promise((resolve) => watch?.signal.addEventListener('abort', resolve));
    const fired = await watch?.stop();

    // Assert
    expect(fired).toEqual({ name: 'api-5xx', reason: 'Threshold Crossed', since: 2 });
    expect(reader.reads).toBe(3);
    expect(asked).toEqual([ALARM_POLL_MS, ALARM_POLL_MS]);
  });

  it('aborts the wait and throws from stop() when a read fails', async () => {
    // Arrange
    const reader = readerOf(ok, new Error('ThrottlingException'));
    const { sleep } = instantSleep();

    // Act
    const watch = watchAlarms({ alarms: reader, sleep }, options, new AbortController().signal);
    await new Promise((resolve) => watch?.signal.addEventListener('abort', resolve));

    // Assert
    await expect(watch?.stop()).rejects.toThrow('ThrottlingException');
  });

  it('ends with the wait it watches, answering no alarm, without sleeping once more', async () => {
    // Arrange: the wait ends while the first read is under way; a sleep begun then (on an aborted
    // signal, which never fires again) would hold stop() forever.
    const parent = new AbortController();
    const reader = readerOf(ok);

    // Act
    const watch = watchAlarms(
      {
        alarms: reader,
        sleep: (_ms, signal) => new Promise((r) => signal.addEventListener('abort', () => r())),
      },
      options,
      parent.signal,
    );
    parent.abort();

    // Assert
    await expect(watch?.stop()).resolves.toBeUndefined();
    expect(watch?.signal.aborted).toBe(true);
  });
});
