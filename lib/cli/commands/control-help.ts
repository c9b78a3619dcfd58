/**
 * Help text of `nomad-restart pause|resume|stop [options] <job | execution ARN>`, in Nomad's
 * style: what the request does at the run's next safe point, what each form needs, then Nomad's
 * general options (the job form's connection).
 */
import type { ControlVerb } from '../../control/requests';
import { GENERAL_OPTIONS_HELP } from './job-restart-help';

/** What each verb does, in the usage's words. */
const DOES: Readonly<Record<ControlVerb, string>> = {
  pause: `  Pause a running restart at its next safe point: the batch in flight (its
  restarts are Nomad's work already under way) is awaited to its end, then
  no further batch starts and the run asks 'Resume the restart?', answered
  by 'nomad-restart resume', at its terminal, in chat or with 'approve'.
  Unanswered, it times out as any question does: no, the run is canceled.`,
  resume: `  Resume a paused restart: its pause question is answered yes, and it goes
  on with its next batch. A pause the run has not reached yet is taken
  back. A restart that is not paused is refused (exit 1), nothing written.`,
  stop: `  Stop a running restart at its next safe point, exactly as a "no" to its
  question does: no further batch starts, the batch in flight is awaited,
  the lock is released and the run ends canceled. A paused restart is
  stopped at once (its pause question is answered no).`,
};

/** The usage text of `verb`. */
export function controlUsage(verb: ControlVerb): string {
  return `Usage: nomad-restart ${verb} [options] <job | execution ARN>

${DOES[verb]}

  The request is attributed to user@host and shown in the run's lines.

  <job>: the run holding the job's lock in Nomad (-namespace), from any
  machine: its lock variable 'nomad-restart/locks/<job>' names the run, and
  the request is written to 'nomad-restart/requests/<job>', which the run
  reads before each batch and while paused. Needs the variables capability
  'read' on 'nomad-restart/locks/*' and 'nomad-restart/history/*' (a run's
  record there tells it from one that ended) and 'write' on
  'nomad-restart/requests/*' (the README's policy grants them). When the
  run is on AWS and NOMAD_RESTART_LOCK_TABLE is set, the job form goes the
  way of the execution ARN form below.

  <execution ARN>: a restart running on AWS Step Functions (any execution of
  its run). The request is recorded on its job's lock item in the lock
  table named by NOMAD_RESTART_LOCK_TABLE; resume and stop also read the
  approvals table named by NOMAD_RESTART_APPROVALS_TABLE, to answer the
  run's pause question when it waits on it. Needs what
  grantOperate(role, 'control') grants (docs/operating-on-aws.md).
  A fleet's execution steers the whole fleet: the request is recorded on
  the fleet's item of the lock table, and resume and stop answer each of
  its jobs parked on its pause question. Needs what
  fleet.grantOperate(role, 'control') grants.

  Exits 0 once the request is recorded (or the question answered), 1 when
  the run does not exist or has ended, nothing is paused to resume (an
  execution ARN), or a call is denied; nothing is written then.

${GENERAL_OPTIONS_HELP}`;
}
