/**
 * Scenario: the real CloudWatch SDK client against the fake on 127.0.0.1 reads alarm states the
 * way the runs' reader will (the protocol round trip the run tests rely on), and a missing alarm
 * fails the read naming it.
 */
import { AlarmNotFoundError } from '../../lib/alarms/errors';
import { type ServedCloudWatch, startFakeCloudWatch } from './helpers/fake-cloudwatch';

let cloudwatch: ServedCloudWatch;
beforeEach(async () => {
  cloudwatch = await startFakeCloudWatch();
});
afterEach(async () => {
  await cloudwatch.close();
});

describe('the fake CloudWatch through the SDK', () => {
  it('answers states, reasons and times as the reader reads them', async () => {
    // Arrange
    const since = Date.UTC(2026, 11, 7, 14, 0, 0);
    cloudwatch.fake.set('api-5xx', 'ALARM', 'Threshold Crossed: 1 datapoint [12.0] > 5.0', since);
    cloudwatch.fake.set('api-p99', 'OK', 'fine', since);

    // Act
    const readings = await cloudwatch.reader.read(['api-5xx', 'api-p99']);

    // Assert
    expect(readings).toEqual([
      { name: 'api-5xx', state: 'ALARM', reason: 'Threshold Crossed: 1 datapoint [12.0] > 5.0', since },
      { name: 'api-p99', state: 'OK', reason: 'fine', since },
    ]);
    expect(cloudwatch.fake.calls).toEqual([['api-5xx', 'api-p99']]);
  });

  it('fails the read naming an alarm it does not hold', async () => {
    // Arrange
    cloudwatch.fake.set('api-5xx', 'OK', 'fine');

    // Act
    const read = cloudwatch.reader.read(['api-5xx', 'api-typo']);

    // Assert
    await expect(read).rejects.toThrow(AlarmNotFoundError);
    await expect(cloudwatch.reader.read(['api-typo'])).rejects.toThrow(
      'Alarm "api-typo" of -stop-on-alarm does not exist in region "us-east-1"',
    );
  });
});
