/**
 * The CDK app: `npx cdk synth` (cdk.json runs this with tsx). Context:
 * `nomadAddress` (default http://127.0.0.1:4646), `nomadTokenSecretArn`, `nomadTlsSecretArn`,
 * `batchesPerExecution`, `stackName` (default NomadRestart).
 */
import { App } from 'aws-cdk-lib';
import { NomadRestartStack } from '../lib/constructs/nomad-restart-stack';

const app = new App();
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};
const batches = ctx('batchesPerExecution');
const tokenArn = ctx('nomadTokenSecretArn');
const tlsArn = ctx('nomadTlsSecretArn');

new NomadRestartStack(app, ctx('stackName') ?? 'NomadRestart', {
  nomadAddress: ctx('nomadAddress') ?? 'http://127.0.0.1:4646',
  ...(tokenArn === undefined ? {} : { nomadTokenSecretArn: tokenArn }),
  ...(tlsArn === undefined ? {} : { nomadTlsSecretArn: tlsArn }),
  ...(batches === undefined ? {} : { batchesPerExecution: Number(batches) }),
});
app.synth();
