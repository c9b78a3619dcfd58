/**
 * The Distributed Map's reads and writes of the plan bucket: the item list "Plan fleet" wrote,
 * and the ResultWriter's files, both under the fleet runs' prefix and nowhere else in the bucket.
 */
import { Arn, ArnFormat, Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';

/** Where every fleet run's documents are: `fleetKeys(run).prefix` is `fleets/<run>/`. */
export const FLEET_RUNS_PREFIX = 'fleets/';

/** The bucket as CDK's interface: exactOptionalPropertyTypes trips over CDK's own Bucket vs IBucket optional fields. */
const asIBucket = (bucket: s3.Bucket) => bucket as unknown as s3.IBucket;

/** The objects of every fleet run in `bucket`: what the state machine role may read and write. */
export function fleetObjectsArn(bucketName: string): string {
  return Arn.format({
    partition: Aws.PARTITION,
    service: 's3',
    region: '',
    account: '',
    resource: bucketName,
    resourceName: `${FLEET_RUNS_PREFIX}*`,
    arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
  });
}

/**
 * `S3JsonItemReader` (`arn:aws:states:::s3:getObject`, InputType JSON) whose grant is
 * `s3:GetObject` on the fleet runs' objects only: CDK's own grants the whole bucket, plans and
 * job records of every one-job run included.
 */
export class FleetItemReader extends sfn.S3JsonItemReader {
  private readonly bucketName: string;

  public constructor(bucket: s3.Bucket, key: string) {
    super({ bucket: asIBucket(bucket), key });
    this.bucketName = bucket.bucketName;
  }

  public override providePolicyStatements(): iam.PolicyStatement[] {
    const bucketArn = Arn.format({
      partition: Aws.PARTITION,
      service: 's3',
      region: '',
      account: '',
      resource: this.bucketName,
    });
    return [
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [fleetObjectsArn(this.bucketName)] }),
      // Listing the prefix makes a missing item list NoSuchKey in the Map's error, not AccessDenied.
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${FLEET_RUNS_PREFIX}*`] } },
      }),
    ];
  }
}

/**
 * `ResultWriterV2` (`arn:aws:states:::s3:putObject`) whose grant is what AWS documents for
 * writing a Map Run's results (`s3:PutObject`, and the multipart upload a large result file takes:
 * `s3:ListMultipartUploadParts`, `s3:AbortMultipartUpload`), on the fleet runs' objects only
 * (https://docs.aws.amazon.com/step-functions/latest/dg/iam-policies-eg-dist-map.html). Its
 * `s3:GetObject` is the item reader's grant, on the same objects.
 */
export class FleetResultWriter extends sfn.ResultWriterV2 {
  private readonly bucketName: string;

  public constructor(bucket: s3.Bucket, prefix: string) {
    super({ bucket: asIBucket(bucket), prefix });
    this.bucketName = bucket.bucketName;
  }

  public override providePolicyStatements(): iam.PolicyStatement[] {
    return [
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
        resources: [fleetObjectsArn(this.bucketName)],
      }),
    ];
  }
}
