/**
 * The CDK app: `npx cdk synth` (cdk.json runs this with tsx). Context (see docs/deploying.md):
 * `nomadAddress` (required: Nomad's address as the Lambda functions reach it), `nomadTokenSecretArn`
 * and `nomadTlsSecretArn` (a secret's name or ARN), `nomadSecretsKmsKeyArn`, `batchesPerExecution`,
 * `stackName` (default NomadRestart); a private Nomad's VPC: `vpcId`, `subnetIds`, `securityGroupIds`.
 * `alarmTopicArn`: the SNS topic every alarm of the stack notifies (without it they notify nobody).
 * A bad value stops the synth with a message naming it.
 */
import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';
import { StackContextError, stackPropsFromContext } from '../lib/constructs/stack-context';

const app = new App();
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};

try {
  new NomadRestartStack(app, ctx('stackName') ?? 'NomadRestart', stackPropsFromContext(ctx));
} catch (error) {
  if (!(error instanceof StackContextError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
app.synth();
