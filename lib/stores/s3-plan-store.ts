/**
 * The plan store on S3, where plans too large for the state document live.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { StoreDecodeError, StoreItemNotFoundError } from './errors';
import type { PlanStore } from './plan-store';

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

  public async deletePrefix(prefix: string): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [{ Key: o.Key }]));
      if (keys.length > 0) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys } }));
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }
}
