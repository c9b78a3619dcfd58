import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { runKeyPrefix, S3PlanStore } from '../../lib/stores';

const s3 = mockClient(S3Client);
// The store only calls transformToString on the body, which is what the SDK's stream mixin adds.
const body = (text: string) => ({ transformToString: async () => text }) as never;

describe('S3PlanStore', () => {
  afterEach(() => s3.reset());

  describe('put', () => {
    it('writes the document as JSON under its key', async () => {
      // Arrange
      s3.on(PutObjectCommand).resolves({});
      const store = new S3PlanStore(new S3Client({}), 'plans');

      // Act
      await store.put('runs/r1/plan.json', { batches: [['a1']] });

      // Assert
      expect(s3.commandCalls(PutObjectCommand)[0]?.args[0].input).toMatchObject({
        Bucket: 'plans',
        Key: 'runs/r1/plan.json',
        Body: '{"batches":[["a1"]]}',
        ContentType: 'application/json',
      });
    });
  });

  describe('get', () => {
    it('reads the document back', async () => {
      // Arrange
      s3.on(GetObjectCommand).resolves({ Body: body('{"batchCount":3}') });
      const store = new S3PlanStore(new S3Client({}), 'plans');

      // Act
      const value = await store.get('runs/r1/plan.json');

      // Assert
      expect(value).toEqual({ batchCount: 3 });
    });

    it.each([
      {
        name: 'fails with the key named when the object is missing',
        setup: () => s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'missing', $metadata: {} })),
        expectedErr: 'Plan store has no object "runs/r1/plan.json"',
      },
      {
        name: 'fails with the key named when the object is not JSON',
        setup: () => s3.on(GetObjectCommand).resolves({ Body: body('not json') }),
        expectedErr: 'Plan store object "runs/r1/plan.json" is not valid JSON',
      },
    ])('$name', async ({ setup, expectedErr }) => {
      // Arrange
      setup();
      const store = new S3PlanStore(new S3Client({}), 'plans');

      // Act
      const result = store.get('runs/r1/plan.json');

      // Assert
      await expect(result).rejects.toThrow(expectedErr);
    });
  });

  describe('endRun', () => {
    it('tags every object of every page under the prefix as an ended run’s', async () => {
      // Arrange
      s3.on(ListObjectsV2Command)
        .resolvesOnce({ Contents: [{ Key: 'runs/r1/a' }], IsTruncated: true, NextContinuationToken: 't' })
        .resolvesOnce({ Contents: [{ Key: 'runs/r1/b' }], IsTruncated: false });
      s3.on(PutObjectTaggingCommand).resolves({});
      const store = new S3PlanStore(new S3Client({}), 'plans');

      // Act
      await store.endRun('runs/r1/');

      // Assert
      expect(s3.commandCalls(ListObjectsV2Command)[1]?.args[0].input.ContinuationToken).toBe('t');
      expect(
        s3.commandCalls(PutObjectTaggingCommand).map((c) => [c.args[0].input.Key, c.args[0].input.Tagging]),
      ).toEqual([
        ['runs/r1/a', { TagSet: [{ Key: 'nomad-restart-run', Value: 'ended' }] }],
        ['runs/r1/b', { TagSet: [{ Key: 'nomad-restart-run', Value: 'ended' }] }],
      ]);
    });
  });

  describe('list', () => {
    it('lists the keys of every page under the prefix, sorted', async () => {
      // Arrange
      s3.on(ListObjectsV2Command)
        .resolvesOnce({
          Contents: [{ Key: 'fleets/f/results/m/SUCCEEDED_0.json' }],
          IsTruncated: true,
          NextContinuationToken: 't',
        })
        .resolvesOnce({ Contents: [{ Key: 'fleets/f/results/m/manifest.json' }], IsTruncated: false });
      const store = new S3PlanStore(new S3Client({}), 'plans');

      // Act
      const keys = await store.list('fleets/f/results/');

      // Assert
      expect(s3.commandCalls(ListObjectsV2Command)[0]?.args[0].input).toEqual({
        Bucket: 'plans',
        Prefix: 'fleets/f/results/',
      });
      expect(keys).toEqual(['fleets/f/results/m/SUCCEEDED_0.json', 'fleets/f/results/m/manifest.json']);
    });
  });
});

describe('runKeyPrefix', () => {
  it.each([
    {
      name: 'uses the execution name of an ARN',
      runId: 'arn:aws:states:us-east-1:1:execution:sm:abc-123',
      expected: 'runs/abc-123/',
    },
    { name: 'replaces characters unsafe in keys', runId: 'local run/1', expected: 'runs/local_run_1/' },
  ])('$name', ({ runId, expected }) => {
    // Arrange
    const id = runId;

    // Act
    const prefix = runKeyPrefix(id);

    // Assert
    expect(prefix).toBe(expected);
  });
});
