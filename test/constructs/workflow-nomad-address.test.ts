// Scenario: a CDK app builds the constructs directly (not through `-c nomadAddress`), with an
// address the Lambda functions could never reach Nomad at. The construct refuses it at synth as
// the context path does, naming the prop and quoting the value; an address resolved only at
// deploy time (a token) is left to the deployment.
import { App, Fn, Stack } from 'aws-cdk-lib';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';

const newStack = () => new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Address');

describe('NomadRestartWorkflow nomadAddress', () => {
  it.each([
    {
      name: 'missing',
      value: undefined,
      expectedErr: 'nomadAddress is required: the address the Lambda functions reach Nomad at',
    },
    { name: 'empty', value: '', expectedErr: 'nomadAddress is required' },
    {
      name: 'not a URL',
      value: 'https://nomad internal:4646',
      expectedErr: 'nomadAddress is not a URL: "https://nomad internal:4646"',
    },
    {
      name: 'host and port only',
      value: 'nomad:4646',
      expectedErr: 'nomadAddress must be http(s), got "nomad:4646"',
    },
    {
      name: 'not http(s)',
      value: 'ftp://nomad.internal:4646',
      expectedErr: 'nomadAddress must be http(s), got "ftp://nomad.internal:4646"',
    },
    {
      name: 'IPv4 loopback',
      value: 'http://127.0.0.1:4646',
      expectedErr: 'nomadAddress is "http://127.0.0.1:4646", a loopback address',
    },
    {
      name: 'localhost',
      value: 'http://localhost:4646',
      expectedErr: 'nomadAddress is "http://localhost:4646", a loopback address',
    },
    {
      name: 'IPv6 loopback',
      value: 'http://[::1]:4646',
      expectedErr: 'nomadAddress is "http://[::1]:4646", a loopback address',
    },
  ])('refuses a $name address, naming the prop', ({ value, expectedErr }) => {
    // Act: a JavaScript caller, or a value read from elsewhere, may pass no string at all.
    const act = () =>
      new NomadRestartWorkflow(newStack(), 'Restart', { nomadAddress: value as unknown as string });

    // Assert
    expect(act).toThrow(expectedErr);
    expect(act).toThrow("e.g. nomadAddress: 'https://nomad.example.internal:4646'");
  });

  it('refuses it through NomadRestartStack too, before creating anything', () => {
    // Arrange
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    // Act
    const act = () => new NomadRestartStack(app, 'Loopback', { nomadAddress: 'http://127.0.0.1:4646' });

    // Assert
    expect(act).toThrow('nomadAddress is "http://127.0.0.1:4646", a loopback address');
  });

  it.each([
    { name: 'a private name', value: 'https://nomad.internal:4646' },
    { name: 'a private IP', value: 'http://10.0.1.20:4646' },
    { name: 'a token', value: Fn.importValue('NomadAddress') },
  ])('takes $name', ({ value }) => {
    // Arrange
    const stack = newStack();

    // Act
    const workflow = new NomadRestartWorkflow(stack, 'Restart', { nomadAddress: value });

    // Assert
    expect(workflow.stateMachine).toBeDefined();
  });
});
