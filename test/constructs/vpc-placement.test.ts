// Scenario: a VPC placement checked where it is given: `-c vpcId`, `-c subnetIds`,
// `-c securityGroupIds` read from the CDK context (refused naming the key, with an example), and
// NomadRestartWorkflow's own `vpc`, `vpcSubnets`, `securityGroups` constructs (refused when they
// contradict each other, including a subnet of another VPC the constructs know of).
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { NomadRestartWorkflow } from '../../lib/constructs/nomad-restart-workflow';
import { stackPropsFromContext } from '../../lib/constructs/stack-context';

const VPC = 'vpc-0123456789abcdef0';
const SUBNETS = ['subnet-0123456789abcdef0', 'subnet-0fedcba9876543210'];
const GROUP = 'sg-0123456789abcdef0';
const ADDRESS = 'https://nomad.internal:4646';

// exactOptionalPropertyTypes trips over CDK's own Vpc vs IVpc optional fields.
const asIVpc = (vpc: ec2.Vpc) => vpc as unknown as ec2.IVpc;

describe('stackPropsFromContext with a VPC', () => {
  const fromContext = (context: Record<string, string>) => () =>
    stackPropsFromContext((key) => ({ nomadAddress: ADDRESS, ...context })[key]);

  it('reads -c vpcId, -c subnetIds and -c securityGroupIds (comma-separated)', () => {
    // Act
    const props = fromContext({
      vpcId: VPC,
      subnetIds: ` ${SUBNETS.join(' , ')} `,
      securityGroupIds: GROUP,
    })();

    // Assert
    expect(props).toMatchObject({ vpcId: VPC, subnetIds: SUBNETS, securityGroupIds: [GROUP] });
  });

  it('leaves the VPC out when no key is given', () => {
    // Act
    const props = fromContext({})();

    // Assert
    expect(props).not.toHaveProperty('vpcId');
    expect(props).not.toHaveProperty('subnetIds');
    expect(props).not.toHaveProperty('securityGroupIds');
  });

  it.each([
    {
      name: 'a VPC without subnets',
      context: { vpcId: VPC },
      expectedErr: `Context "vpcId" is "${VPC}" but subnetIds is not given`,
    },
    {
      name: 'an empty subnet list',
      context: { vpcId: VPC, subnetIds: ' , ' },
      expectedErr: `Context "vpcId" is "${VPC}" but subnetIds is not given`,
    },
    {
      name: 'subnets without a VPC',
      context: { subnetIds: SUBNETS.join(',') },
      expectedErr: 'Context "subnetIds" is given without vpcId',
    },
    {
      name: 'a subnet id as the VPC',
      context: { vpcId: SUBNETS[0] ?? '', subnetIds: SUBNETS.join(',') },
      expectedErr: `Context "vpcId" is "${SUBNETS[0]}", which is not a VPC id`,
    },
    {
      name: 'a malformed subnet',
      context: { vpcId: VPC, subnetIds: 'subnet-0123456789ABCDEF0' },
      expectedErr: 'Context "subnetIds" has "subnet-0123456789ABCDEF0", which is not a subnet id',
    },
    {
      name: 'a malformed security group',
      context: { vpcId: VPC, subnetIds: SUBNETS.join(','), securityGroupIds: 'default' },
      expectedErr: 'Context "securityGroupIds" has "default", which is not a security group id',
    },
  ])('refuses $name, naming the key', ({ context, expectedErr }) => {
    // Act / Assert
    expect(fromContext(context)).toThrow(expectedErr);
    expect(fromContext(context)).toThrow('e.g. -c vpcId=vpc-0123456789abcdef0 -c subnetIds=subnet-');
  });
});

describe('NomadRestartWorkflow in a VPC', () => {
  const build = (props: (stack: Stack) => Partial<ConstructorParameters<typeof NomadRestartWorkflow>[2]>) => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Workflow');
    return () => new NomadRestartWorkflow(stack, 'Restart', { nomadAddress: ADDRESS, ...props(stack) });
  };

  it('refuses a subnet of another VPC when the VPC knows its subnets', () => {
    // Arrange
    const act = build((stack) => {
      const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2 });
      const other = new ec2.Vpc(stack, 'Other', { maxAzs: 2 });
      return { vpc: asIVpc(vpc), vpcSubnets: { subnets: [other.privateSubnets[0] as ec2.ISubnet] } };
    });

    // Act / Assert
    expect(act).toThrow(/vpcSubnets has subnet ".+", which is not one of the subnets of vpc/);
  });

  it('takes a subnet of its own VPC', () => {
    // Arrange
    let vpc: ec2.Vpc | undefined;
    const act = build((stack) => {
      vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2 });
      return { vpc: asIVpc(vpc), vpcSubnets: { subnets: [vpc.privateSubnets[0] as ec2.ISubnet] } };
    });

    // Act
    const workflow = act();

    // Assert
    expect(workflow.securityGroups).toHaveLength(1);
    expect(vpc).toBeDefined();
  });

  it.each([
    { name: 'vpcSubnets', expectedErr: 'vpcSubnets is given without vpc' },
    { name: 'securityGroups', expectedErr: 'securityGroups is given without vpc' },
  ])('refuses $name without vpc', ({ name, expectedErr }) => {
    // Arrange
    const act = build((stack) =>
      name === 'vpcSubnets'
        ? { vpcSubnets: { subnets: [ec2.Subnet.fromSubnetId(stack, 'S', SUBNETS[0] ?? '')] } }
        : { securityGroups: [ec2.SecurityGroup.fromSecurityGroupId(stack, 'G', GROUP)] },
    );

    // Act / Assert
    expect(act).toThrow(expectedErr);
  });
});
