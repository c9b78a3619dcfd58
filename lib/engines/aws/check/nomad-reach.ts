/**
 * Nomad's and Consul's reachability from inside the deployment, as `nomad-restart check -job`
 * reports it: what the check execution's read step (the plan function, placed and configured as
 * every Nomad-calling function, `lib/workflow/deployment-check-reach.ts`) saw, turned into findings
 * with the fix for each way it fails. Only a real deployment tells: the VPC's routes, security
 * groups and the token's policy are not in the template.
 */
import { goQuote } from '../../../go/quote';
import type { ReachTarget } from '../../../workflow/deployment-check';
import type { ConsulReach, ReachError, ReachReport } from '../../../workflow/deployment-check-reach';
import type { ReachOutcome } from './check-history';
import { type CheckResult, failed, passed } from './check-result';

/** The fix for a Nomad the functions cannot connect to. */
export const NOMAD_NETWORK_FIX =
  "let the Nomad-calling functions reach Nomad's address: a route from their subnets (NAT or a " +
  'peering to Nomad), egress from their security groups and ingress to Nomad on its port; the stack ' +
  'places them with the vpcId, subnetIds and securityGroupIds context keys (docs/deploying.md)';

function nomadFix(error: ReachError, target: ReachTarget, address: string): string {
  const namespace = target.namespace ?? 'default';
  switch (error.name) {
    case 'NomadConnectionError':
    case 'NomadTimeoutError':
      return NOMAD_NETWORK_FIX;
    case 'NomadTlsError':
      return "check the TLS secret (nomadTlsSecretArn: caCert, serverName) against Nomad's certificate";
    default:
      break;
  }
  if (error.statusCode === 403)
    return (
      `give the ACL token in the Nomad token secret the README's policy in namespace ${goQuote(namespace)} ` +
      '(policy = "read" grants read-job, which this read needs; Nomad\'s 403 does not name it)'
    );
  if (error.statusCode === 404)
    return `check -job and -namespace: Nomad at ${goQuote(address)} has no job ${goQuote(target.job)} in namespace ${goQuote(namespace)}`;
  return 'read the log of the plan function (behind "Reach Nomad for deployment check") for the request Nomad refused';
}

function consulResult(consul: ConsulReach, job: string): CheckResult {
  const what = `the functions read the checks of Consul service ${goQuote(consul.service)} (of job ${goQuote(job)})`;
  if (consul.reached) return passed(`${what}: ${consul.checks} checks`);
  const fix =
    consul.error.name === 'ConsulUnreachableError'
      ? 'deploy with -c consulAddress=<host:port the functions reach> and let the functions that read ' +
        'Consul (plan, await-health) reach it as they reach Nomad (docs/deploying.md)'
      : consul.error.statusCode === 403
        ? 'put in the Consul token secret a token Consul knows ("ACL not found" otherwise) with the ' +
          "README's Consul policy (read on the job's services and their nodes)"
        : 'read the log of the plan function (behind "Reach Nomad for deployment check")';
  return failed(what, consul.error.message, fix);
}

function reportResults(report: ReachReport, target: ReachTarget): CheckResult[] {
  const where = `from Nomad at ${goQuote(report.nomadAddress)}`;
  const what = `the functions read job ${goQuote(target.job)} ${where}`;
  const { nomad } = report;
  if (!nomad.reached)
    return [failed(what, nomad.error.message, nomadFix(nomad.error, target, report.nomadAddress))];
  const found = passed(
    `${what}: a ${nomad.type} job, status ${nomad.status}, ${nomad.allocations} allocations, in namespace ${goQuote(nomad.namespace)}` +
      (report.consul === undefined ? ' (it declares no Consul service: Consul not read)' : ''),
  );
  return report.consul === undefined ? [found] : [found, consulResult(report.consul, nomad.job)];
}

/**
 * The findings of the check's read of `target`, from what its history holds (`undefined`: the
 * execution never ran the read).
 */
export function reachResults(outcome: ReachOutcome | undefined, target: ReachTarget): CheckResult[] {
  if (outcome !== undefined && 'report' in outcome) return reportResults(outcome.report, target);
  const what = `the functions read job ${goQuote(target.job)} from Nomad`;
  if (outcome === undefined)
    return [
      failed(
        what,
        'the check execution ran no read step',
        'deploy the stack from this version of nomad-restart (an older state machine reads no job)',
      ),
    ];
  return [
    failed(
      what,
      `the read step failed with ${outcome.failed.error}: ${outcome.failed.cause}`,
      'read the log of the plan function (behind "Reach Nomad for deployment check"): it could not ' +
        'build its Nomad client (the token or TLS secret, their KMS key, the function role)',
    ),
  ];
}
