/**
 * Help text of `nomad-restart fleet [options]`, in Nomad's style: what a fleet run does, the ACL
 * capabilities it needs, the selection and budget options, then the general options and every
 * restart option of the one-job command (the same entries, `-task` and `-group` left out).
 */

import { MAX_REASON_LENGTH } from '../../restart/run/reason';
import { ALARM_OPTIONS_HELP } from './alarm-help';
import {
  BEYOND_OPTIONS_HELP,
  GENERAL_OPTIONS_HELP,
  helpSection,
  RESTART_OPTIONS_HELP,
} from './job-restart-help';
import { REASON_OPTION_HELP } from './reason-help';

const HEADER = `
Usage: nomad-restart fleet [options]

  Restart many jobs as one durable run: the jobs Nomad selects with the
  options below, each restarted as 'nomad-restart <job>' restarts one (same
  batches, lines, questions and lock), a few at a time under one budget.
  At least one of -filter, -node, -node-pool, -datacenter, -uses-variable,
  -uses-secret or -namespace (or NOMAD_NAMESPACE) must be given: a fleet
  run never restarts every job by default. -namespace (a general option)
  selects every job of that namespace, or with '*' of every namespace the
  token may list: Nomad lists only those, and the plan names them, so a
  namespace hidden by the token's policy shows before anything restarts.

  Jobs that cannot be restarted are listed with their reason and skipped,
  never failed: sysbatch jobs, stopped or dead jobs, parameterized and
  periodic parents and their dispatched or periodic children, and jobs with
  no running allocation in scope. A job whose lock another run holds is not
  waited for: it is reported with the holder and counts as not done.

  Jobs restart in a stable order, namespace then job ID, unless -order
  priority. The run ends with one summary line, 'Fleet restart finished: <a>
  jobs restarted, <b> failed, <c> skipped', or 'Fleet restart finished with
  errors: ...' when a job failed, was locked or was not reached; then the
  exit code is 1.

  When ACLs are enabled, this command needs what 'nomad-restart <job>' needs
  in each selected job's namespace, plus 'list-jobs' there. The options
  -node, -node-pool and -datacenter read Nomad's node endpoints, which need
  'node:read'. -stale lists the variables' metadata, which needs the
  variables 'list' capability on their paths.

`;

/** The fleet's own options, alphabetical. */
const FLEET_OPTIONS = [
  `
  -datacenter=<dc>
    Only restart allocations placed in this datacenter. Can be specified
    multiple times. Jobs with no running allocation there are skipped.`,
  `
  -filter=<expression>
    Select jobs with Nomad's filter language, evaluated by Nomad on each job
    (the 'filter' query parameter of the job list), for example
    'Meta.team == "payments"', 'Type == "service"' or 'Name matches "^web-"'.
    A syntax error is Nomad's message, before anything is touched. A field no
    job has selects nothing: the plan says how many jobs matched.`,
  `
  -max-failed-jobs=<n>
    Once more than n jobs ended with errors, no further job starts; jobs
    already restarting stop at their next batch, as a failed batch would.
    A locked job never counts. Defaults to 0.`,
  `
  -max-jobs=<n>
    Number of jobs restarting at the same moment. With 1, each job opens
    with its own header and prints exactly the lines of
    'nomad-restart <job>'; above 1, each job's lines are prefixed with
    '[<namespace>/<job>] '. Defaults to 1.`,
  `
  -node=<node-id>
    Only restart allocations placed on this node: a node ID or ID prefix, as
    'nomad node status' takes it. Can be specified multiple times. A prefix
    that matches no node or several is refused.`,
  `
  -node-pool=<pool>
    Only restart allocations placed on nodes of this node pool. An unknown
    node pool is refused.`,
  `
  -order=<id|priority>
    'id' (default): namespace, then job ID. 'priority': by Nomad job
    priority, highest last, so the most important services restart after the
    rest proved fine.`,
  `
  -stale
    With -uses-variable: in each job, restart only the allocations with a
    task that started before the newest change ('ModifyTime') of the
    variables the job reads there, so a run after no change restarts
    nothing and starts no job. Listing the variables needs the 'list'
    capability on their paths; a path where none is found is refused.`,
  `
  -uses-secret=<path>
    Only jobs whose task templates read this Vault secret ('secret "<path>"'),
    given as 'vault kv get' takes it ('kv/payments/db') or as a template
    writes it ('kv/data/payments/db'); a trailing '*' selects every path
    under a prefix. Can be specified multiple times. The tool never asks
    Vault: -started-before gives the time of the rotation.`,
  `
  -uses-variable=<path>
    Only jobs that read this Nomad variable: a task template with nomadVar,
    nomadVarExists or a nomadVarList prefix covering it, or the paths Nomad
    lets the job's tasks read without a policy (nomad/jobs/<job>/...). Read
    from each job's specification; a job with a template read from a file
    (source) is named not inspectable and skipped unless -filter selects it.
    A trailing '*' selects every path under a prefix. Can be specified
    multiple times.`,
];

/** The one-job options that name something inside one job: refused by `fleet`. */
const ONE_JOB_ONLY = new Set(['group', 'task']);

/** A fleet's own words for the entries the one-job help says differently. */
const FLEET_OVERRIDES: Readonly<Record<string, string>> = {
  'dry-run': `
  -dry-run
    Print the fleet's plan (the jobs in order with their allocations and
    batches, the skipped jobs and why, the totals, the requests a run would
    send) without changing anything.`,
  reason: `
  -reason=<text>
    Why the fleet is started (a ticket, a sentence), kept with the fleet's
    record and with each job's record in the restart history
    ('nomad-restart history'): one line of at most ${MAX_REASON_LENGTH} characters.`,
  'state-machine-arn': `
  -state-machine-arn=<arn>
    The fleet state machine to run with -engine=aws (the stack's
    FleetStateMachineArn output).`,
  'stop-on-alarm': `
  -stop-on-alarm=<name|arn>
    A CloudWatch alarm (its name, or its ARN) each job watches, as
    'nomad-restart <job>' does: before each batch and during health waits,
    in ALARM it stops that job as a failed batch does. Repeatable. With the
    local engine the alarms are read with this machine's AWS settings. Plan
    fleet reads them once before it reads Nomad: an alarm that does not
    exist refuses the fleet, naming it, and no job starts.`,
};

const entries = (help: Readonly<Record<string, string>>) =>
  Object.entries(help)
    .filter(([flag]) => !ONE_JOB_ONLY.has(flag))
    .map(([flag, entry]) => FLEET_OVERRIDES[flag] ?? entry);

const HELP = [
  HEADER,
  helpSection('Fleet Options:', FLEET_OPTIONS),
  '\n',
  GENERAL_OPTIONS_HELP,
  '\n',
  helpSection('Restart Options (each job):', entries(RESTART_OPTIONS_HELP)),
  '\n',
  helpSection(
    'Options beyond nomad job restart:',
    entries({ ...BEYOND_OPTIONS_HELP, ...ALARM_OPTIONS_HELP, ...REASON_OPTION_HELP }),
  ),
].join('');

/** The full help text of `nomad-restart fleet`, trimmed like Nomad's. */
export function fleetHelp(): string {
  return HELP.trim();
}
