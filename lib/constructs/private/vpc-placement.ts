/**
 * Where the functions that call Nomad run when Nomad is private: a VPC, its subnets and security
 * groups. Given by id (the CDK context, the stack's props), they are checked here once, worded for
 * either, and imported without an account lookup (`Vpc.fromLookup` needs credentials at synth);
 * given as constructs (`NomadRestartWorkflow`'s `vpc`, `vpcSubnets`, `securityGroups`), they are
 * checked against each other as far as the constructs know. What no synth can know (that the
 * subnets really are in that VPC, when all it has are ids) is for the deployment:
 * docs/deploying.md, "Running in a VPC".
 */
import { Annotations, Token, ValidationError } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';

/** The VPC placement by id, as the context and the stack take it. */
export interface VpcPlacementIds {
  /** The VPC (`vpc-…`) the functions that call Nomad run in. @default - not in a VPC */
  readonly vpcId?: string;
  /** Its subnets the functions run in (`subnet-…`, at most 16); required with `vpcId`. @default - none */
  readonly subnetIds?: readonly string[];
  /** Security groups of those functions (`sg-…`, at most 5). @default - one created for them, all egress */
  readonly securityGroupIds?: readonly string[];
}

/** The key of {@link VpcPlacementIds} a problem is about, and the problem, phrased to follow it. */
export interface VpcPlacementProblem {
  readonly key: keyof VpcPlacementIds;
  readonly problem: string;
}

/** Lambda's limits on a function's `VpcConfig` (Lambda API reference, `VpcConfig`). */
export const LAMBDA_MAX_SUBNETS = 16;
export const LAMBDA_MAX_SECURITY_GROUPS = 5;

/** An EC2 id as AWS writes them: the prefix, then 8 or 17 lowercase letters and digits. */
const ec2Id = (prefix: string) => new RegExp(`^${prefix}-([a-z0-9]{8}|[a-z0-9]{17})$`);
const VPC_ID = ec2Id('vpc');
const SUBNET_ID = ec2Id('subnet');
const SECURITY_GROUP_ID = ec2Id('sg');

function listProblem(ids: readonly string[], pattern: RegExp, what: string, max: number): string | undefined {
  const bad = ids.find((id) => !pattern.test(id));
  if (bad !== undefined) return `has "${bad}", which is not ${what} id`;
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) return `has "${twice}" twice`;
  if (ids.length > max) return `has ${ids.length} ids; a Lambda function takes at most ${max}`;
  return undefined;
}

/**
 * The first reason the ids make no placement a function can be deployed in, or `undefined`: a
 * malformed id, subnets or security groups without a VPC, a VPC without subnets (an imported VPC
 * has no subnets to choose from), more than Lambda takes.
 */
export function vpcPlacementProblem(ids: VpcPlacementIds): VpcPlacementProblem | undefined {
  const { vpcId, subnetIds = [], securityGroupIds = [] } = ids;
  if (vpcId === undefined) {
    if (subnetIds.length > 0)
      return { key: 'subnetIds', problem: 'is given without vpcId: name the VPC they are in' };
    if (securityGroupIds.length > 0)
      return { key: 'securityGroupIds', problem: 'is given without vpcId: name the VPC they are in' };
    return undefined;
  }
  if (!VPC_ID.test(vpcId)) return { key: 'vpcId', problem: `is "${vpcId}", which is not a VPC id` };
  if (subnetIds.length === 0) {
    return {
      key: 'vpcId',
      problem: `is "${vpcId}" but subnetIds is not given: name the VPC's subnets the functions run in (private, with a route to Nomad)`,
    };
  }
  const subnets = listProblem(subnetIds, SUBNET_ID, 'a subnet', LAMBDA_MAX_SUBNETS);
  if (subnets !== undefined) return { key: 'subnetIds', problem: subnets };
  const groups = listProblem(
    securityGroupIds,
    SECURITY_GROUP_ID,
    'a security group',
    LAMBDA_MAX_SECURITY_GROUPS,
  );
  if (groups !== undefined) return { key: 'securityGroupIds', problem: groups };
  return undefined;
}

/** What {@link importVpcPlacement} gives the workflow. */
export interface VpcPlacement {
  readonly vpc: ec2.IVpc;
  readonly vpcSubnets: ec2.SubnetSelection;
  readonly securityGroups?: ec2.ISecurityGroup[];
}

/**
 * The placement the ids name, imported under `scope` without a lookup: the subnets as the VPC's
 * private ones, the security groups as immutable (the stack never adds rules to a group it does
 * not own). `ids.vpcId` and `ids.subnetIds` must be set.
 */
export function importVpcPlacement(scope: Construct, ids: VpcPlacementIds): VpcPlacement {
  const subnetIds = [...(ids.subnetIds ?? [])];
  const vpc = ec2.Vpc.fromVpcAttributes(scope, 'Vpc', {
    vpcId: ids.vpcId ?? '',
    privateSubnetIds: subnetIds,
    // An imported VPC needs one zone per subnet, which only a lookup (credentials) would know. A
    // Lambda function's VpcConfig carries subnet ids alone, so these names never reach the
    // template (test/constructs/workflow-vpc.test.ts checks it).
    availabilityZones: subnetIds.map((_, i) => `${UNKNOWN_ZONE}${i}`),
  });
  for (const subnet of vpc.privateSubnets) {
    Annotations.of(subnet).acknowledgeWarning(
      '@aws-cdk/aws-ec2:noSubnetRouteTableId',
      'A Lambda function in a subnet needs its id only; nothing in the stack reads its route table.',
    );
  }
  const groups = (ids.securityGroupIds ?? []).map((id) =>
    ec2.SecurityGroup.fromSecurityGroupId(scope, `SecurityGroup-${id}`, id, { mutable: false }),
  );
  return {
    vpc,
    vpcSubnets: { subnets: vpc.privateSubnets },
    ...(groups.length === 0 ? {} : { securityGroups: groups }),
  };
}

/** The prefix of the placeholder zones of an imported VPC's subnets. */
export const UNKNOWN_ZONE = 'zone-not-looked-up-';

const lit = (s: string) => s as ConstructorParameters<typeof ValidationError>[0];

/**
 * Whether `subnet` is certainly not one of `vpc`'s: the VPC knows its subnets (one defined in the
 * app, or imported with its subnet ids) and `subnet` is none of them, by construct or by id. A
 * literal id against a VPC whose ids are resolved only at deploy time cannot be told.
 */
function isStranger(vpc: ec2.IVpc, subnet: ec2.ISubnet): boolean {
  const known = [...vpc.publicSubnets, ...vpc.privateSubnets, ...vpc.isolatedSubnets];
  if (known.length === 0) return false;
  if (known.some((s) => s === subnet || s.subnetId === subnet.subnetId)) return false;
  return Token.isUnresolved(subnet.subnetId) || known.every((s) => !Token.isUnresolved(s.subnetId));
}

/**
 * Refuses `vpcSubnets` or `securityGroups` without `vpc`, more of them than Lambda takes, and an
 * explicit subnet that is not one of the VPC's when the VPC construct knows its subnets.
 */
export function validateVpcProps(
  scope: Construct,
  props: {
    readonly vpc?: ec2.IVpc;
    readonly vpcSubnets?: ec2.SubnetSelection;
    readonly securityGroups?: readonly ec2.ISecurityGroup[];
  },
): void {
  const fail = (code: string, message: string): never => {
    throw new ValidationError(lit(code), message, scope);
  };
  if (props.vpc === undefined) {
    if (props.vpcSubnets !== undefined) fail('VpcSubnetsWithoutVpc', 'vpcSubnets is given without vpc');
    if (props.securityGroups !== undefined)
      fail('SecurityGroupsWithoutVpc', 'securityGroups is given without vpc');
    return;
  }
  const groups = props.securityGroups?.length ?? 0;
  if (groups > LAMBDA_MAX_SECURITY_GROUPS)
    fail(
      'TooManySecurityGroups',
      `securityGroups has ${groups}; a Lambda function takes at most ${LAMBDA_MAX_SECURITY_GROUPS}`,
    );
  const explicit = props.vpcSubnets?.subnets ?? [];
  if (explicit.length > LAMBDA_MAX_SUBNETS)
    fail(
      'TooManySubnets',
      `vpcSubnets has ${explicit.length} subnets; a Lambda function takes at most ${LAMBDA_MAX_SUBNETS}`,
    );
  const { vpc } = props;
  const stranger = explicit.find((s) => isStranger(vpc, s));
  if (stranger !== undefined) {
    fail(
      'SubnetNotInVpc',
      `vpcSubnets has subnet "${stranger.subnetId}", which is not one of the subnets of vpc "${props.vpc.vpcId}"`,
    );
  }
}
