/**
 * `states:DescribeExecution` on one state machine's executions only, with the cdk-nag
 * acknowledgement of its wildcard (execution names are not known when deploying).
 */
import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';

/** Lets `fn` describe the executions of `stateMachine`; `why` is the acknowledgement's reason. */
export function grantDescribeExecutions(
  fn: lambda.Function,
  stateMachine: sfn.StateMachine,
  why: string,
): void {
  const stack = Stack.of(fn);
  const name = stateMachine.stateMachineName;
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['states:DescribeExecution'],
      resources: [
        stack.formatArn({
          service: 'states',
          resource: 'execution',
          resourceName: `${name}:*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
  );
  // cdk-nag names an unresolved region, account or name by its pseudo parameter or attribute.
  const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  const nameAttribute = `${stack.getLogicalId(stateMachine.node.defaultChild as sfn.CfnStateMachine)}.Name`;
  Validations.of(fn.role ?? fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:${named(stack.region, 'AWS::Region')}:${named(stack.account, 'AWS::AccountId')}:execution:${named(name, nameAttribute)}:*]`,
    reason: why,
  });
}
