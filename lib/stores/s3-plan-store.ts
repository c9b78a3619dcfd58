/**
 * The plan store on S3, where plans too large for the state document live.
 */
import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  PutObjectTaggingCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { StoreDecodeError, StoreItemNotFoundError } from './errors';
import { ENDED_RUN_TAG, type PlanStore } from './plan-store';

/** The plan store on S3: one JSON object per key, server-side encrypted by the bucket's default. */
export class S3PlanStore implements PlanStore {
  public constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  public async put(key: string, value: unknown): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: JSON.stringify(value),
        ContentType: 'application/json',
      }),
    );
  }

  public async get(key: string): Promise<unknown> {
    let text: string;
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      text = (await out.Body?.transformToString('utf-8')) ?? '';
    } catch (err) {
      if (err instanceof NoSuchKey || (err instanceof Error && err.name === 'NoSuchKey')) {
        throw new StoreItemNotFoundError(`Plan store has no object "${key}"`, { cause: err });
      }
      throw err;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new StoreDecodeError(`Plan store object "${key}" is not valid JSON`, { cause: err });
    }
  }

  public async endRun(prefix: string): Promise<void> {
    for (const Key of await this.list(prefix)) {
      await this.client.send(
        new PutObjectTaggingCommand({
          Bucket: this.bucket,
          Key,
          Tagging: { TagSet: [{ Key: ENDED_RUN_TAG.key, Value: ENDED_RUN_TAG.value }] },
        }),
      );
    }
  }

  public async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      for (const { Key } of page.Contents ?? []) if (Key !== undefined) keys.push(Key);
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    // ListObjectsV2 answers in UTF-8 binary order already; sorted here as the interface promises.
    return keys.sort();
  }
}
