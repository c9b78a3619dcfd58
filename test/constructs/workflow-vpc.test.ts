// Scenario: Nomad is private, so the stack is deployed with `-c vpcId=… -c subnetIds=…` (and maybe
// `-c securityGroupIds=…`). The functions that call Nomad run in those subnets and no other
// function does; the security group they share is an output to allow into Nomad's; a placement
// that could never deploy (a VPC without subnets, subnets without a VPC, malformed ids, more than
// Lambda takes, a VPC given two ways) is refused at synth, naming the prop. The context's and the
// workflow construct's own checks: vpc-placement.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { NomadRestartStack } from '../../lib/constructs/nomad-restart-stack';
import { PROJECT_ROOT } from '../../lib/constructs/private/task-function';
import { UNKNOWN_ZONE } from '../../lib/constructs/private/vpc-placement';
import { stackPropsFromContext } from '../../lib/constructs/stack-context';
import { awsSolutionsFindings } from './helpers/nag';
import { synthWithApprovalChannels } from './helpers/synth';

const VPC = 'vpc-0123456789abcdef0';
const SUBNETS = ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'];
const GROUP = 'sg-0123456789abcdef0';
const ADDRESS = 'https://nomad.internal:4646';
const TOPIC = 'arn:aws:sns:us-east-1:123456789012:approvals';

type Resource = { Properties: Record<string, unknown> };

// exactOptionalPropertyTypes trips over CDK's own Vpc vs IVpc optional fields.
const asIVpc = (vpc: ec2.Vpc) => vpc as unknown as ec2.IVpc;

/** Function logical id → its `VpcConfig` (undefined outside the VPC) and whether it has NOMAD_ADDR. */
function placements(template: Template) {
  return Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).map(
    ([id, fn]) => {
      const env = (fn.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      return {
        id,
        vpcConfig: fn.Properties['VpcConfig'] as
          | { SubnetIds: unknown[]; SecurityGroupIds: unknown[] }
          | undefined,
        callsNomad: env?.['NOMAD_ADDR'] !== undefined,
      };
    },
  );
}

/** Every action the IAM policies of the in-VPC functions' roles allow. */
function inVpcRoleActions(template: Template): string[] {
  const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
  const roles = new Set(
    Object.values(functions)
      .filter((fn) => fn.Properties['VpcConfig'] !== undefined)
      .map((fn) => (fn.Properties['Role'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]),
  );
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, Resource>;
  return Object.values(policies)
    .filter((p) => (p.Properties['Roles'] as { Ref: string }[]).some((r) => roles.has(r.Ref)))
    .flatMap(
      (p) => (p.Properties['PolicyDocument'] as { Statement: { Action: string | string[] }[] }).Statement,
    )
    .flatMap((st) => (Array.isArray(st.Action) ? st.Action : [st.Action]));
}

describe('NomadRestartStack in a VPC', () => {
  describe('from -c vpcId and -c subnetIds', () => {
    let app: App;
    let template: Template;

    beforeAll(() => {
      ({ app, template } = synthWithApprovalChannels('InVpc', TOPIC, {
        notifyRunEnded: true,
        vpcId: VPC,
        subnetIds: SUBNETS,
      }));
    });

    it('places exactly the functions that call Nomad in the given subnets', () => {
      // Act
      const all = placements(template);
      const inside = all.filter((p) => p.vpcConfig !== undefined).map((p) => p.id);

      // Assert: the 12 that call Nomad and the fleet's 3 (each writes the fleet's record); the chat,
      // answer and run-end functions stay outside.
      expect(inside).toEqual(all.filter((p) => p.callsNomad).map((p) => p.id));
      expect(inside).toHaveLength(15);
      for (const fleetFn of ['planfleet', 'summarizefleet', 'endfleetrecord'])
        expect(inside).toEqual(
          expect.arrayContaining([expect.stringMatching(new RegExp(`^Fleet${fleetFn}fnFunction`))]),
        );
      expect(inside).toEqual(expect.arrayContaining([expect.stringMatching(/^RestartlockjobfnFunction/)]));
      expect(inside).toEqual(
        expect.arrayContaining([expect.stringMatching(/^RestartreleasestalelockfnFunction/)]),
      );
      expect(inside.filter((id) => /approval|RunNotifications|askfn|validateinput/.test(id))).toEqual([]);
      for (const p of all.filter((x) => x.vpcConfig !== undefined)) {
        expect(p.vpcConfig?.SubnetIds).toEqual(SUBNETS);
      }
    });

    it('gives those functions one security group of their own, all egress, and outputs its id', () => {
      // Act
      const groups = template.findResources('AWS::EC2::SecurityGroup') as Record<string, Resource>;
      const [groupId] = Object.keys(groups);
      const configs = placements(template).flatMap((p) => (p.vpcConfig === undefined ? [] : [p.vpcConfig]));

      // Assert
      expect(Object.keys(groups)).toEqual([expect.stringMatching(/^RestartNomadCallers/)]);
      expect(groups[groupId ?? '']?.Properties).toMatchObject({
        VpcId: VPC,
        SecurityGroupEgress: [{ CidrIp: '0.0.0.0/0', IpProtocol: '-1' }],
      });
      expect(groups[groupId ?? '']?.Properties['SecurityGroupIngress']).toBeUndefined();
      for (const config of configs) {
        expect(config.SecurityGroupIds).toEqual([{ 'Fn::GetAtt': [groupId, 'GroupId'] }]);
      }
      template.hasOutput('NomadCallersSecurityGroupId', {
        Value: { 'Fn::GetAtt': [groupId, 'GroupId'] },
      });
    });

    it('renders no placeholder zone of the imported VPC', () => {
      // Act
      const rendered = JSON.stringify(template.toJSON());

      // Assert
      expect(rendered).not.toContain(UNKNOWN_ZONE);
    });

    it('synthesizes without a warning', () => {
      // Act
      const warnings = app
        .synth()
        .getStackByName('InVpc')
        .messages.filter((m) => m.level === 'warning')
        .map((m) => `${m.id}: ${String(m.entry.data)}`);

      // Assert
      expect(warnings).toEqual([]);
    });

    it('reports no unacknowledged cdk-nag finding', () => {
      // Act
      const { findings } = awsSolutionsFindings(app);

      // Assert
      expect(findings).toEqual([]);
    });
  });

  it('lists in docs/deploying.md an endpoint for every AWS API an in-VPC function may call', () => {
    // Arrange: every secret configured, so every grant is there.
    const { template } = synthWithApprovalChannels('InVpcSecrets', TOPIC, {
      vpcId: VPC,
      subnetIds: SUBNETS,
      nomadTokenSecret: { name: 'nomad-token' },
      nomadTlsSecret: { name: 'nomad-tls' },
      consulTokenSecret: { name: 'consul-token' },
    });
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'deploying.md'), 'utf8');

    // Act
    const services = new Set(
      inVpcRoleActions(template)
        .map((action) => action.split(':')[0] ?? '')
        // Lambda itself delivers logs, traces and the dead-letter queue's messages; ec2 is its
        // own ENI management (the VPC access managed policy).
        .filter((service) => !['logs', 'xray', 'sqs', 'ec2'].includes(service)),
    );

    // Assert
    expect([...services].sort()).toEqual(['cloudwatch', 'dynamodb', 's3', 'secretsmanager', 'states']);
    // CloudWatch's endpoint is named after its API's host, `monitoring`, not its IAM prefix.
    const endpointName = (service: string) => (service === 'cloudwatch' ? 'monitoring' : service);
    for (const service of services)
      expect(doc).toContain(`\`com.amazonaws.<region>.${endpointName(service)}\``);
  });

  it('uses the given security groups, never changing them, and outputs none', () => {
    // Act
    const { template } = synthWithApprovalChannels('InVpcWithGroup', TOPIC, {
      vpcId: VPC,
      subnetIds: SUBNETS,
      securityGroupIds: [GROUP],
    });

    // Assert
    const configs = placements(template).flatMap((p) => (p.vpcConfig === undefined ? [] : [p.vpcConfig]));
    expect(configs).toHaveLength(15); // the 12 that call Nomad and the fleet's 3
    for (const config of configs) expect(config.SecurityGroupIds).toEqual([GROUP]);
    template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
    template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    template.resourceCountIs('AWS::EC2::SecurityGroupEgress', 0);
    expect(Object.keys(template.findOutputs('NomadCallersSecurityGroupId'))).toEqual([]);
  });

  it('takes an empty -c securityGroupIds as none given: one group for all, and its id output', () => {
    // Arrange
    const context: Record<string, string> = {
      nomadAddress: ADDRESS,
      vpcId: VPC,
      subnetIds: SUBNETS.join(','),
      securityGroupIds: ' , ',
    };
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    // Act
    const stack = new NomadRestartStack(
      app,
      'EmptyGroups',
      stackPropsFromContext((key) => context[key]),
    );

    // Assert
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::EC2::SecurityGroup', 1);
    expect(Object.keys(template.findOutputs('NomadCallersSecurityGroupId'))).toEqual([
      'NomadCallersSecurityGroupId',
    ]);
  });

  it('places no function in a VPC without one', () => {
    // Act
    const { template } = synthWithApprovalChannels('NoVpc', TOPIC);

    // Assert
    expect(placements(template).filter((p) => p.vpcConfig !== undefined)).toEqual([]);
    template.resourceCountIs('AWS::EC2::SecurityGroup', 0);
  });

  it.each([
    {
      name: 'a VPC without subnets',
      over: { vpcId: VPC },
      expectedErr: `vpcId is "${VPC}" but subnetIds is not given`,
    },
    {
      name: 'subnets without a VPC',
      over: { subnetIds: SUBNETS },
      expectedErr: 'subnetIds is given without vpcId',
    },
    {
      name: 'security groups without a VPC',
      over: { securityGroupIds: [GROUP] },
      expectedErr: 'securityGroupIds is given without vpcId',
    },
    {
      name: 'a malformed VPC id',
      over: { vpcId: 'vpc-xyz', subnetIds: SUBNETS },
      expectedErr: 'vpcId is "vpc-xyz", which is not a VPC id',
    },
    {
      name: 'a malformed subnet id',
      over: { vpcId: VPC, subnetIds: ['subnet-0123456789abcdef0', 'sn-1'] },
      expectedErr: 'subnetIds has "sn-1", which is not a subnet id',
    },
    {
      name: 'a malformed security group id',
      over: { vpcId: VPC, subnetIds: SUBNETS, securityGroupIds: ['subnet-0123456789abcdef0'] },
      expectedErr: 'securityGroupIds has "subnet-0123456789abcdef0", which is not a security group id',
    },
    {
      name: 'a subnet twice',
      over: { vpcId: VPC, subnetIds: [SUBNETS[0] ?? '', SUBNETS[0] ?? ''] },
      expectedErr: `subnetIds has "${SUBNETS[0]}" twice`,
    },
    {
      name: 'more subnets than Lambda takes',
      over: {
        vpcId: VPC,
        subnetIds: Array.from({ length: 17 }, (_, i) => `subnet-${String(i).padStart(8, '0')}`),
      },
      expectedErr: 'subnetIds has 17 ids; a Lambda function takes at most 16',
    },
    {
      name: 'more security groups than Lambda takes',
      over: {
        vpcId: VPC,
        subnetIds: SUBNETS,
        securityGroupIds: Array.from({ length: 6 }, (_, i) => `sg-${String(i).padStart(8, '0')}`),
      },
      expectedErr: 'securityGroupIds has 6 ids; a Lambda function takes at most 5',
    },
  ])('refuses $name, naming the prop', ({ over, expectedErr }) => {
    // Arrange
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });

    // Act
    const act = () => new NomadRestartStack(app, 'Bad', { nomadAddress: ADDRESS, ...over });

    // Assert
    expect(act).toThrow(expectedErr);
  });

  it('refuses a VPC given both by id and as a construct', () => {
    // Arrange
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const network = new Stack(app, 'Network');
    const vpc = new ec2.Vpc(network, 'Vpc');

    // Act
    const act = () =>
      new NomadRestartStack(app, 'Both', {
        nomadAddress: ADDRESS,
        vpcId: VPC,
        subnetIds: SUBNETS,
        vpc: asIVpc(vpc),
      });

    // Assert
    expect(act).toThrow('vpcId and vpc are both given');
  });
});
