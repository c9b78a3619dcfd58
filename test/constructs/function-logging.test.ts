/**
 * How every function of the stack logs: JSON lines (the runtime's own included) at INFO, into
 * its own log group. Whether the handlers' logger survives that format unwrapped is
 * test/lambdas/private/logger.unit.test.ts.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { synthWithApprovalChannels } from './helpers/synth';

describe('the functions of the stack', () => {
  it('log JSON at INFO, application and system alike, to their own log group', () => {
    // Arrange: every feature that adds a function (the endpoint, the notifiers).
    const { template } = synthWithApprovalChannels(
      'LoggingTest',
      'arn:aws:sns:us-east-1:123456789012:nomad-restart-questions',
      { notifyRunEnded: true },
    );

    // Act
    const functions = Object.keys(template.findResources('AWS::Lambda::Function'));

    // Assert
    expect(functions.length).toBeGreaterThan(15);
    template.allResourcesProperties('AWS::Lambda::Function', {
      LoggingConfig: {
        LogFormat: 'JSON',
        ApplicationLogLevel: 'INFO',
        SystemLogLevel: 'INFO',
        LogGroup: Match.anyValue(),
      },
    });
  });
});
