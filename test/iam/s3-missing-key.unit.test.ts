/**
 * S3's answer to a read of a missing key, as the IAM check gives it (iam-check.ts,
 * `s3AnswerToMissingKey`): the emulator's 404 `NoSuchKey` stands only when the reading function's
 * role may `s3:ListBucket` the bucket at that key; otherwise S3 answers 403 `AccessDenied`.
 */
import { NoSuchKey, S3ServiceException } from '@aws-sdk/client-s3';
import { IamCheck, s3AnswerToMissingKey } from './helpers/iam-check';
import { TemplateIam } from './helpers/template-iam';

const BUCKET = 'plans-1234';
const FUNCTION_ID = 'RestartplanfnFunction1234ABCD';
const READ = { Bucket: BUCKET, Key: 'runs/r-1/plan.json' };

/** A template whose `plan` function's role has `statements` (and nothing else of the stack). */
function checkWith(statements: Record<string, unknown>[]): IamCheck {
  const template = {
    Resources: {
      [FUNCTION_ID]: {
        Type: 'AWS::Lambda::Function',
        Properties: { Role: { 'Fn::GetAtt': ['PlanRole', 'Arn'] } },
      },
      PlanRole: {
        Type: 'AWS::IAM::Role',
        Properties: {
          Policies: [
            { PolicyName: 'plans', PolicyDocument: { Version: '2012-10-17', Statement: statements } },
          ],
        },
      },
    },
  };
  return new IamCheck(new TemplateIam(template));
}

const GET = { Effect: 'Allow', Action: 's3:GetObject', Resource: `arn:aws:s3:::${BUCKET}/runs/*` };
const LIST = {
  Effect: 'Allow',
  Action: 's3:ListBucket',
  Resource: `arn:aws:s3:::${BUCKET}`,
  Condition: { StringLike: { 's3:prefix': 'runs/*' } },
};
const missing = () => new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });

describe("S3's answer to a missing key", () => {
  it('is 403 AccessDenied when the role may not list the bucket at that key', async () => {
    // Arrange
    const check = checkWith([GET]);

    // Act
    const answer = await s3AnswerToMissingKey(check, 'plan', 'GetObject', READ, missing());

    // Assert
    expect(answer).toBeInstanceOf(S3ServiceException);
    expect((answer as S3ServiceException).name).toBe('AccessDenied');
    expect((answer as S3ServiceException).$metadata.httpStatusCode).toBe(403);
    expect((answer as Error).message).toContain(
      'the key "runs/r-1/plan.json" does not exist and the role may not list it, so S3 answers 403 AccessDenied, not 404 NoSuchKey',
    );
  });

  it('stays 404 NoSuchKey when the role may list the bucket at that key', async () => {
    // Arrange
    const check = checkWith([GET, LIST]);
    const error = missing();

    // Act
    const answer = await s3AnswerToMissingKey(check, 'plan', 'GetObject', READ, error);

    // Assert
    expect(answer).toBe(error);
  });

  it('is 403 when the listing grant covers another prefix only', async () => {
    // Arrange
    const check = checkWith([GET, { ...LIST, Condition: { StringLike: { 's3:prefix': 'other/*' } } }]);

    // Act
    const answer = await s3AnswerToMissingKey(check, 'plan', 'HeadObject', READ, missing());

    // Assert
    expect((answer as Error).name).toBe('AccessDenied');
  });

  it('leaves any other error as it is', async () => {
    // Arrange
    const check = checkWith([GET]);
    const error = new Error('socket hang up');

    // Act
    const answer = await s3AnswerToMissingKey(check, 'plan', 'GetObject', READ, error);

    // Assert
    expect(answer).toBe(error);
  });
});
