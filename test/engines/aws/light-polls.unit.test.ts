/**
 * Scenario: a long run's history (hundreds of events, each with its step's state) followed poll
 * by poll. Each poll asks for a small page, newest first; that page is all it reads while
 * nothing or a little has happened. Only when the small page holds no event already seen does it
 * read again from the newest event in wide pages (a page token only continues a read of the same
 * size), and every event still comes out once, in order.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { FIRST_PAGE_SIZE, HistoryFollower, sfnCalls, WIDE_PAGE_SIZE } from '../../../lib/engines/aws';
import { ev } from './helpers/fake-history';
import { FakeStepFunctions } from './helpers/fake-step-functions';
import { execArn, REGION } from './helpers/fixtures';
import { bindToSdkMock } from './helpers/sdk-binding';

const sfn = mockClient(SFNClient);
const ARN = execArn('long-run');
const steps = (n: number) => Array.from({ length: n }, () => ev.step('Decide', []));

function follow() {
  const fake = new FakeStepFunctions();
  bindToSdkMock(sfn, fake);
  fake.addExecution(ARN, { job: 'example' }, steps(299));
  const follower = new HistoryFollower(sfnCalls(new SFNClient({ region: REGION })), ARN);
  const reads = () => fake.received('GetExecutionHistory');
  return { fake, follower, reads };
}

describe('polling history', () => {
  afterEach(() => sfn.reset());

  it('reads the first time all 300 events, newest first in wide pages after the small one', async () => {
    // Arrange
    const { follower, reads } = follow();

    // Act
    const events = await follower.poll();

    // Assert
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(reads().map((r) => r['maxResults'])).toEqual([
      FIRST_PAGE_SIZE,
      WIDE_PAGE_SIZE,
      WIDE_PAGE_SIZE,
      WIDE_PAGE_SIZE,
    ]);
    expect(reads().every((r) => r['reverseOrder'] === true && r['includeExecutionData'] === true)).toBe(true);
  });

  it('asks for one small page per poll while nothing or little happens', async () => {
    // Arrange
    const { fake, follower, reads } = follow();
    await follower.poll();
    const before = reads().length;

    // Act
    const idle = await follower.poll();
    fake.append(ARN, steps(3));
    const few = await follower.poll();

    // Assert
    expect(idle).toEqual([]);
    expect(few.map((e) => e.id)).toEqual([301, 302, 303]);
    expect(reads().slice(before)).toEqual([
      { executionArn: ARN, reverseOrder: true, includeExecutionData: true, maxResults: FIRST_PAGE_SIZE },
      { executionArn: ARN, reverseOrder: true, includeExecutionData: true, maxResults: FIRST_PAGE_SIZE },
    ]);
  });

  it('widens only when the small page reaches no event already seen, and still returns each event once', async () => {
    // Arrange
    const { fake, follower, reads } = follow();
    await follower.poll();
    const before = reads().length;

    // Act
    fake.append(ARN, steps(150));
    const many = await follower.poll();

    // Assert
    expect(many.map((e) => e.id)).toEqual(Array.from({ length: 150 }, (_, i) => i + 301));
    expect(
      reads()
        .slice(before)
        .map((r) => [r['maxResults'], r['nextToken'] === undefined]),
    ).toEqual([
      [FIRST_PAGE_SIZE, true],
      [WIDE_PAGE_SIZE, true],
      [WIDE_PAGE_SIZE, false],
    ]);
  });
});
