/**
 * Help text of `nomad-restart [options] <job>`, modelled on `nomad job restart -help`
 * with our fixes (README, "Differences from nomad job restart"): every ACL capability is listed
 * (including `submit-job` or `evaluate-job` for `-reschedule` on system jobs), `-reschedule` is
 * described as what it does (stop the allocation and let the scheduler place a replacement), and
 * `-no-shutdown-delay` is said to work only with `-reschedule`.
 */
import { DEFAULT_NOMAD_ADDRESS } from '../../nomad/config';
import { ALARM_OPTIONS_HELP as ALARMS } from './alarm-help';
import { REASON_OPTION_HELP as WHY } from './reason-help';

const HEADER = `
Usage: nomad-restart [options] <job>

  Restart allocations of a job in place, or stop them so that the scheduler
  places replacements (-reschedule). Same flags, lines, questions and exit
  codes as 'nomad job restart'; the batch loop runs as an AWS Step Functions
  state machine, in-process (-engine=local, the default) or on AWS
  (-engine=aws).

  Restarting calls the 'Restart Allocation' API endpoint to restart the tasks
  inside allocations, so the allocations themselves are not modified but
  restarted in place.

  With -reschedule, the command calls the 'Stop Allocation' API endpoint: each
  allocation is stopped and the scheduler places a replacement allocation,
  possibly on a different client. The group's 'reschedule' block does not
  apply. For system jobs the command also triggers a job evaluation so that
  the replacement is placed. The command waits until every replacement has
  client status 'running' before the next batch; service health checks are not
  taken into account.

  The command works in batches and waits until all allocations of a batch are
  restarted or replaced before starting the next one. It can also wait a fixed
  time, or ask, between batches.

  When restarting in place the command may target specific tasks, restart only
  the tasks that are currently running (the default), or restart all tasks,
  even the ones that have already run. Allocations can also be targeted by
  group. When both groups and tasks are given, only those tasks of the
  allocations of those groups are restarted.

  By default the command restarts all running tasks in place, one allocation
  per batch.

  When ACLs are enabled, this command requires a token with the
  'alloc-lifecycle' and 'read-job' capabilities in the job's namespace. The
  'list-jobs' capability is also required to give a job ID prefix instead of
  the exact job ID. With -reschedule on a system job, the token also needs the
  'submit-job' or 'evaluate-job' capability, to trigger the evaluation that
  places the replacements.

  One run per job at a time, across terminals and AWS: each run holds the
  job's lock, the Nomad variable 'nomad-restart/locks/<job>' in the job's
  namespace (Nomad 1.7 or later), which needs the 'read' and 'write'
  variables capabilities on 'nomad-restart/locks/*' (a released lock leaves
  the variable, taken again by the next run). Without 'write' the command warns
  and restarts without that lock; NOMAD_RESTART_VARIABLES_LOCK=required
  refuses to, and NOMAD_RESTART_VARIABLES_LOCK=false never takes it. A run
  that loses the lock (Nomad refuses its renewal) stops before its next batch
  and exits 1.

`;

/** Nomad's general options, as every Nomad command's help lists them. */
export const GENERAL_OPTIONS_HELP = `General Options:

  -address=<addr>
    The address of the Nomad server.
    Overrides the NOMAD_ADDR environment variable if set.
    Default = ${DEFAULT_NOMAD_ADDRESS}

  -region=<region>
    The region of the Nomad servers to forward commands to.
    Overrides the NOMAD_REGION environment variable if set.
    Defaults to the Agent's local region.

  -namespace=<namespace>
    The target namespace for queries and actions bound to a namespace.
    Overrides the NOMAD_NAMESPACE environment variable if set.
    If set to '*', the job prefix is searched in all namespaces authorized
    to the user.
    Defaults to the "default" namespace.

  -no-color
    Disables colored command output. Alternatively, NOMAD_CLI_NO_COLOR or
    NO_COLOR may be set. This option takes precedence over -force-color.

  -force-color
    Forces colored command output. This can be used in cases where the usual
    terminal detection fails. Alternatively, NOMAD_CLI_FORCE_COLOR may be set.
    This option has no effect if -no-color is also used.

  -ca-cert=<path>
    Path to a PEM encoded CA cert file to use to verify the
    Nomad server SSL certificate. Overrides the NOMAD_CACERT
    environment variable if set.

  -ca-path=<path>
    Path to a directory of PEM encoded CA cert files to verify
    the Nomad server SSL certificate. If both -ca-cert and
    -ca-path are specified, -ca-cert is used. Overrides the
    NOMAD_CAPATH environment variable if set.

  -client-cert=<path>
    Path to a PEM encoded client certificate for TLS authentication
    to the Nomad server. Must also specify -client-key. Overrides
    the NOMAD_CLIENT_CERT environment variable if set.

  -client-key=<path>
    Path to an unencrypted PEM encoded private key matching the
    client certificate from -client-cert. Overrides the
    NOMAD_CLIENT_KEY environment variable if set.

  -tls-server-name=<value>
    The server name to use as the SNI host when connecting via
    TLS. Overrides the NOMAD_TLS_SERVER_NAME environment variable if set.

  -tls-skip-verify
    Do not verify TLS certificate. This is highly not recommended. Verification
    will also be skipped if NOMAD_SKIP_VERIFY is set.

  -token
    The SecretID of an ACL token to use to authenticate API requests with.
    Overrides the NOMAD_TOKEN environment variable if set. HTTP basic
    authentication can be set with NOMAD_HTTP_AUTH=<user:pass>.
`;

/** The help entry of each option of `nomad job restart`, by flag (Nomad's order). */
export const RESTART_OPTIONS_HELP: Readonly<Record<string, string>> = {
  'all-tasks': `
  -all-tasks
    If set, all tasks in the allocations are restarted, even the ones that
    have already run, such as non-sidecar tasks. Tasks will restart following
    their lifecycle order. This option cannot be used with '-task', and is
    ignored with '-reschedule'.`,
  'batch-size': `
  -batch-size=<n|n%>
    Number of allocations to restart at once. It may be defined as a percentage
    of the allocations to restart (after filtering by status, group and task,
    and leaving out allocations that already have a replacement). Percentage
    values are rounded up to increase parallelism. Defaults to 1.`,
  'batch-wait': `
  -batch-wait=<duration|'ask'>
    Time to wait between restart batches. If set to 'ask' the command halts
    between batches and waits for user input on how to proceed. If the answer
    is a time duration all remaining batches will use this new value. Defaults
    to 0.`,
  group: `
  -group=<group-name>
    Only restart allocations for the given group. Can be specified multiple
    times. If no group is set all allocations for the job are restarted.`,
  'no-shutdown-delay': `
  -no-shutdown-delay
    Only with '-reschedule': ignore the group and task 'shutdown_delay'
    configuration when stopping allocations, so there is no delay between
    service deregistration and task shutdown. Note that using this flag will
    result in failed network connections to the allocations being stopped.
    In-place restarts always wait for the group 'shutdown_delay'.`,
  'on-error': `
  -on-error=<'ask'|'fail'>
    Determines what action to take when an error happens during a restart
    batch. If 'ask' the command stops and waits for user confirmation on how to
    proceed. If 'fail' the command exits immediately. Defaults to 'ask'.`,
  reschedule: `
  -reschedule
    If set, allocations are stopped and the scheduler places a replacement for
    each one, instead of restarting them in place. The group's 'reschedule'
    block does not apply. Since the job is not modified this does not create a
    new deployment, and so values defined in 'update' blocks, such as
    'max_parallel', are not taken into account. This option cannot be used
    with '-task'. Only jobs of type 'batch', 'service', and 'system' can be
    rescheduled; system jobs need the 'submit-job' or 'evaluate-job'
    capability.`,
  task: `
  -task=<task-name>
    Specify the task to restart. Can be specified multiple times. If groups are
    also specified the task must exist in at least one of them. If no task is
    set only tasks that are currently running are restarted. For example,
    non-sidecar tasks that already ran are not restarted unless '-all-tasks' is
    used instead. This option cannot be used with '-all-tasks' or
    '-reschedule'.`,
  yes: `
  -yes
    Automatic yes to prompts. If set, the command automatically restarts
    multi-region jobs only in the region targeted by the command, ignores
    recoverable batch errors, stops on unrecoverable ones, and automatically
    proceeds with the remaining batches without waiting. Use '-on-error' and
    '-batch-wait' to adjust these behaviors.`,
  verbose: `
  -verbose
    Display full information.`,
};

/** The help entry of each of our options beyond `nomad job restart`, by flag (alphabetical). */
export const BEYOND_OPTIONS_HELP: Readonly<Record<string, string>> = {
  'consul-address': `
  -consul-address=<addr>
    With '-wait-healthy', the Consul agent whose checks the gate reads.
    Overrides the CONSUL_HTTP_ADDR environment variable if set
    (CONSUL_HTTP_SSL, CONSUL_CACERT, CONSUL_CAPATH, CONSUL_CLIENT_CERT,
    CONSUL_CLIENT_KEY, CONSUL_TLS_SERVER_NAME and CONSUL_HTTP_SSL_VERIFY are
    read as Consul's CLI reads them). Default = 127.0.0.1:8500`,
  'consul-token': `
  -consul-token=<token>
    With '-wait-healthy', the Consul ACL token the gate reads Consul's checks
    with (sent as X-Consul-Token, never to Nomad; the Nomad token never goes
    to Consul). Overrides CONSUL_HTTP_TOKEN_FILE and CONSUL_HTTP_TOKEN. It
    needs 'service:read' on the job's services and 'node:read' on their nodes:
    service_prefix "" { policy = "read" }
    node_prefix "" { policy = "read" }`,
  'dry-run': `
  -dry-run
    Print the plan (batches, allocations and what would be done to each,
    skipped allocations and why) without changing anything.`,
  'healthy-deadline': `
  -healthy-deadline=<duration>
    With '-wait-healthy', an allocation that is not healthy this long after
    the wait began counts as a failed allocation, handled by '-on-error',
    '-yes' and '-max-errors' like any other. Defaults to 5m, as Nomad's
    'update' block.`,
  engine: `
  -engine=<local|aws>
    Where the state machine runs: 'local' (default) runs it in this process;
    'aws' starts an execution of -state-machine-arn and follows it. With
    'aws' the deployment reaches Nomad through its own connection, so -address,
    -token and the TLS options are refused (except with -dry-run, which plans
    from here). 'nomad-restart attach <execution-arn>' follows a run again;
    'nomad-restart questions', 'approve <id>' and 'deny <id>' answer its
    questions from any terminal, as chat does (first answer wins).
    'nomad-restart check -state-machine-arn <arn>', run once after deploying,
    proves the answer path and the alarms against the real deployment.`,
  'max-errors': `
  -max-errors=<n|n%>
    With '-yes', stop the restart once more than this many allocations (or
    this percentage of the allocations to restart) have failed.`,
  'min-healthy-time': `
  -min-healthy-time=<duration>
    With '-wait-healthy', how long an allocation must stay healthy without a
    break; a task that stops or a check that fails starts the count again.
    Must be less than '-healthy-deadline'. Defaults to 10s, as Nomad's
    'update' block.`,
  output: `
  -output=<text|json>
    'text' (default) prints the lines of 'nomad job restart'; 'json' prints
    progress events as JSON lines.`,
  'replacement-timeout': `
  -replacement-timeout=<duration>
    With '-reschedule', stop waiting for an allocation's replacement after this
    long and count it as a failed allocation. Defaults to waiting forever.`,
  'started-before': `
  -started-before=<time|duration>
    Only restart allocations with a task in scope (running tasks; all with
    '-all-tasks' or '-reschedule'; the '-task' tasks) that last started before
    this time: RFC 3339 with a zone (2026-12-07T09:00:00Z), or a duration that
    long before now (2h); not in the future. Others are skipped as "started
    after <time>"; if all are, "All <n> allocations started after <time>",
    exit 0. So a run repeated with the same time, or resumed after an
    interrupt, restarts only what it had not reached.`,
  'state-machine-arn': `
  -state-machine-arn=<arn>
    The state machine to run with -engine=aws.`,
  'wait-healthy': `
  -wait-healthy
    After each batch, before the batch wait and the next batch, wait until
    every allocation of the batch is healthy again: each restarted task
    started again after the restart and running (with '-reschedule', the
    replacement running), and every Nomad service check of the allocation
    passing with a result newer than the task's start. Allocations without
    service checks are judged on their tasks alone. A failed allocation
    is reported at once. Off by default, as in Nomad; recommended for
    unattended and scheduled restarts.

    Consul service checks (provider = "consul", Nomad's default) count as
    Nomad's deployments count them: passing, or warning with on_update =
    "ignore_warnings", and once they ran since the restart; on_update =
    "ignore" checks are not waited for. Consul is read only then, once
    before the first batch and with blocking queries after each batch; a
    Consul that cannot be reached or refuses the token stops the run.`,
};

/** A help section: its title, then each help entry (less its leading newline) a blank line apart. */
export function helpSection(title: string, entries: readonly string[]): string {
  return `${title}\n\n${entries.map((entry) => entry.slice(1)).join('\n\n')}\n`;
}

const BEYOND = { ...BEYOND_OPTIONS_HELP, ...ALARMS, ...WHY };
const HELP = [
  HEADER,
  GENERAL_OPTIONS_HELP,
  '\n',
  helpSection('Restart Options:', Object.values(RESTART_OPTIONS_HELP)),
  '\n',
  helpSection('Options beyond nomad job restart:', Object.values(BEYOND)),
].join('');

/** The full help text, trimmed like Nomad's. */
export function jobRestartHelp(): string {
  return HELP.trim();
}
