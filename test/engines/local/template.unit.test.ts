import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  extractStateMachineDefinition,
  loadSynthesizedTemplate,
  StateMachineNotFoundError,
  SynthesizedTemplateNotFoundError,
  TemplateIntrinsicError,
} from '../../../lib/engines/local';

/** A template shaped like `cdk synth` output: the definition is an `Fn::Join` around GetAtt tokens. */
function cdkLikeTemplate(extraResources: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Parameters: {
      BootstrapVersion: {
        Type: 'AWS::SSM::Parameter::Value<String>',
        Default: '/cdk-bootstrap/hnb659fds/version',
      },
    },
    Resources: {
      PlanFnA1B2C3D4: {
        Type: 'AWS::Lambda::Function',
        Metadata: { 'aws:cdk:path': 'Stack/Workflow/PlanFn/Resource' },
        Properties: {
          Handler: 'index.handler',
        },
      },
      LockTable1234: { Type: 'AWS::DynamoDB::Table', Properties: {} },
      WorkflowSM5678: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: {
          StateMachineName: 'NomadRestart',
          DefinitionString: {
            'Fn::Join': [
              '',
              [
                '{"StartAt":"Plan","States":{"Plan":{"Type":"Task","Resource":"arn:',
                { Ref: 'AWS::Partition' },
                ':states:::lambda:invoke","Parameters":{"FunctionName":"',
                { 'Fn::GetAtt': ['PlanFnA1B2C3D4', 'Arn'] },
                '","Payload.$":"$"},"Next":"Lock"},"Lock":{"Type":"Task","Resource":"arn:aws:states:::dynamodb:putItem","Parameters":{"TableName":"',
                { Ref: 'LockTable1234' },
                '","Item":{}},"Next":"Next"},"Next":{"Type":"Task","Resource":"arn:aws:states:::states:startExecution","Parameters":{"StateMachineArn":"',
                {
                  'Fn::Join': [
                    ':',
                    [
                      'arn',
                      { Ref: 'AWS::Partition' },
                      'states',
                      { Ref: 'AWS::Region' },
                      { Ref: 'AWS::AccountId' },
                      'stateMachine',
                      'NomadRestart',
                    ],
                  ],
                },
                '","Input":{}},"Next":"Done"},"Done":{"Type":"Pass","Result":"hello","End":true}}}',
              ],
            ],
          },
        },
      },
      ...extraResources,
    },
  };
}

describe('extractStateMachineDefinition', () => {
  it('resolves the definition with placeholder ARNs that name logical ids', () => {
    // Act
    const extracted = extractStateMachineDefinition(cdkLikeTemplate());

    // Assert
    expect(extracted.logicalId).toBe('WorkflowSM5678');
    expect(extracted.stateMachineArn).toBe('arn:aws:states:local:000000000000:stateMachine:NomadRestart');
    expect(extracted.definition).toEqual({
      StartAt: 'Plan',
      States: {
        Plan: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: {
            FunctionName: 'arn:aws:lambda:local:000000000000:function:PlanFnA1B2C3D4',
            'Payload.$': '$',
          },
          Next: 'Lock',
        },
        Lock: {
          Type: 'Task',
          Resource: 'arn:aws:states:::dynamodb:putItem',
          Parameters: { TableName: 'LockTable1234', Item: {} },
          Next: 'Next',
        },
        Next: {
          Type: 'Task',
          Resource: 'arn:aws:states:::states:startExecution',
          Parameters: {
            StateMachineArn: 'arn:aws:states:local:000000000000:stateMachine:NomadRestart',
            Input: {},
          },
          Next: 'Done',
        },
        Done: { Type: 'Pass', Result: 'hello', End: true },
      },
    });
  });

  it.each([
    {
      name: 'an intrinsic the synthesized template never uses (Fn::Sub)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation Fn::Sub syntax, not JS
      properties: { DefinitionString: { 'Fn::Sub': '{"StartAt":"${AWS::Region}","States":{}}' } },
      expected: 'intrinsic "Fn::Sub" is not supported by the local engine',
    },
    {
      name: 'DefinitionSubstitutions',
      properties: { DefinitionString: '{"StartAt":"X","States":{}}', DefinitionSubstitutions: { A: 'b' } },
      expected: 'DefinitionSubstitutions are not supported by the local engine',
    },
  ])('refuses $name instead of running a definition half-resolved', ({ properties, expected }) => {
    // Arrange
    const template = {
      Resources: { SM: { Type: 'AWS::StepFunctions::StateMachine', Properties: properties } },
    };

    // Act
    const extracting = () => extractStateMachineDefinition(template);

    // Assert
    expect(extracting).toThrow(TemplateIntrinsicError);
    expect(extracting).toThrow(expected);
  });

  it('picks the state machine by logical id prefix', () => {
    // Arrange
    const template = cdkLikeTemplate({
      OtherSM: {
        Type: 'AWS::StepFunctions::StateMachine',
        Properties: { Definition: { StartAt: 'X', States: {} } },
      },
    });

    // Act
    const extracted = extractStateMachineDefinition(template, { logicalIdPrefix: 'Other' });

    // Assert
    expect(extracted).toMatchObject({
      logicalId: 'OtherSM',
      stateMachineArn: 'arn:aws:states:local:000000000000:stateMachine:OtherSM',
      definition: { StartAt: 'X', States: {} },
    });
  });

  it.each([
    {
      name: 'a template without Resources',
      template: { Outputs: {} },
      opts: {},
      expectedErr: new StateMachineNotFoundError('template has no "Resources" object'),
    },
    {
      name: 'a template without a state machine',
      template: { Resources: { Fn: { Type: 'AWS::Lambda::Function' } } },
      opts: {},
      expectedErr: new StateMachineNotFoundError('template has no AWS::StepFunctions::StateMachine'),
    },
    {
      name: 'two state machines and no prefix',
      template: cdkLikeTemplate({ OtherSM: { Type: 'AWS::StepFunctions::StateMachine', Properties: {} } }),
      opts: {},
      expectedErr: new StateMachineNotFoundError(
        'template has 2 state machines (WorkflowSM5678, OtherSM); pass logicalIdPrefix to pick one',
      ),
    },
    {
      name: 'a prefix that matches nothing',
      template: cdkLikeTemplate(),
      opts: { logicalIdPrefix: 'Nope' },
      expectedErr: new StateMachineNotFoundError(
        'template has no AWS::StepFunctions::StateMachine with a logical id starting with "Nope"',
      ),
    },
    {
      name: 'an intrinsic the local engine cannot resolve',
      template: {
        Resources: {
          SM: {
            Type: 'AWS::StepFunctions::StateMachine',
            Properties: { DefinitionString: { 'Fn::ImportValue': 'elsewhere' } },
          },
        },
      },
      opts: {},
      expectedErr: new TemplateIntrinsicError(
        'Resources.SM.Properties.DefinitionString.Fn::ImportValue: intrinsic "Fn::ImportValue" is not supported by the local engine',
      ),
    },
    {
      name: 'a GetAtt of a missing resource',
      template: {
        Resources: {
          SM: {
            Type: 'AWS::StepFunctions::StateMachine',
            Properties: {
              DefinitionString: { 'Fn::Join': ['', ['{"x":"', { 'Fn::GetAtt': ['Gone', 'Arn'] }, '"}']] },
            },
          },
        },
      },
      opts: {},
      expectedErr: new TemplateIntrinsicError(
        'Resources.SM.Properties.DefinitionString.Fn::Join[1].Fn::GetAtt: Fn::GetAtt of unknown resource "Gone"',
      ),
    },
  ])('refuses $name', ({ template, opts, expectedErr }) => {
    // Act
    const act = () => extractStateMachineDefinition(template, opts);

    // Assert
    expect(act).toThrow(expectedErr);
    expect(act).toThrow(expectedErr.constructor as new () => Error);
  });
});

describe('loadSynthesizedTemplate', () => {
  it('reads <cdkOutDir>/<stack>.template.json', async () => {
    // Arrange
    const dir = await mkdtemp(join(tmpdir(), 'local-template-'));
    await writeFile(join(dir, 'Stack.template.json'), JSON.stringify({ Resources: {} }));

    // Act
    const template = await loadSynthesizedTemplate(dir, 'Stack');

    // Assert
    expect(template).toEqual({ Resources: {} });
  });

  it.each([
    {
      name: 'a missing template',
      content: undefined,
      expected: /^cannot read synthesized template .*Stack\.template\.json$/,
    },
    {
      name: 'a template that is not JSON',
      content: '{',
      expected: /^synthesized template .*Stack\.template\.json is not JSON$/,
    },
  ])('refuses $name', async ({ content, expected }) => {
    // Arrange
    const dir = await mkdtemp(join(tmpdir(), 'local-template-'));
    if (content !== undefined) await writeFile(join(dir, 'Stack.template.json'), content);

    // Act
    const load = loadSynthesizedTemplate(dir, 'Stack');

    // Assert
    await expect(load).rejects.toThrow(SynthesizedTemplateNotFoundError);
    await expect(loadSynthesizedTemplate(dir, 'Stack')).rejects.toThrow(expected);
  });
});
