/**
 * Scenario: the two functions that end runs (Release lock, and the stale-lock handler of the
 * status-change rule) mark a run's documents as ended the way the S3 plan store does it on AWS:
 * ListObjectsV2 under `runs/<run>/`, then PutObjectTagging on each key. Run against s3rver with
 * each call checked against that function's role in the synthesized template: a role without
 * `s3:ListBucket` for the prefix fails the listing with S3's AccessDenied, as S3 would.
 */
import { GetObjectTaggingCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { planStoreFromEnv } from '../../lib/stores/from-env';
import { ENDED_RUN_TAG } from '../../lib/stores/plan-store';
import { useEmulatedAws } from './helpers/emulated-aws';
import { asFunction } from './helpers/iam-check';

const aws = useEmulatedAws();
const RUN = 'runs/arn:aws:states:us-east-1:123456789012:execution:NomadRestart:r1/';

async function writeRun(): Promise<string[]> {
  const keys = [`${RUN}plan`, `${RUN}journal/1`, `${RUN}journal/2`];
  for (const key of keys) await asFunction('plan', () => planStoreFromEnv().put(key, { key }));
  return keys;
}

async function tagsOf(key: string) {
  const s3 = new S3Client({});
  try {
    return (await s3.send(new GetObjectTaggingCommand({ Bucket: aws.bucket, Key: key }))).TagSet;
  } finally {
    s3.destroy();
  }
}

describe('ending a run on S3, as AWS authorizes it', () => {
  it.each(['release-lock', 'release-stale-lock'])(
    '%s lists the run and tags every document it wrote',
    async (fn) => {
      // Arrange
      const keys = await writeRun();

      // Act
      await asFunction(fn, () => planStoreFromEnv().endRun(RUN));

      // Assert
      for (const key of keys)
        expect(await tagsOf(key)).toEqual([{ Key: ENDED_RUN_TAG.key, Value: ENDED_RUN_TAG.value }]);
      const calls = aws.ledger.calls.filter((c) => c.functionName === fn).map((c) => c.request);
      expect(calls[0]).toEqual({
        action: 's3:ListBucket',
        resource: `arn:aws:s3:::${aws.bucket}`,
        context: { 's3:prefix': RUN },
      });
      expect(calls.slice(1).map((c) => c.action)).toEqual(keys.map(() => 's3:PutObjectTagging'));
    },
  );

  it('fails a call the role does not allow as S3 does, naming the function, action, resource and a statement that would allow it', async () => {
    // Arrange: the ask function has no access to the plan bucket.
    await writeRun();

    // Act
    const error = await asFunction('ask', () => planStoreFromEnv().get(`${RUN}plan`)).catch(
      (e: unknown) => e,
    );

    // Assert
    expect(error).toBeInstanceOf(S3ServiceException);
    expect(error).toMatchObject({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 403 },
    });
    const message = (error as Error).message;
    expect(message).toContain('is not authorized to perform: s3:GetObject on resource');
    expect(message).toContain('function ask');
    expect(message).toContain(`arn:aws:s3:::${aws.bucket}/${RUN}plan`);
    expect(message).toContain('"Effect":"Allow","Action":"s3:GetObject"');
    expect(aws.ledger.takeDenied().map((c) => c.request.action)).toEqual(['s3:GetObject']);
  });
});
