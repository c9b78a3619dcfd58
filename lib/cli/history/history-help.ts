/**
 * Help text of `nomad-restart history [options] [<job> [<run ID prefix>]]`, in Nomad's style: what
 * it lists, what the token needs, its options, then Nomad's general options.
 */

import { GENERAL_OPTIONS_HELP } from '../commands/job-restart-help';
import { DEFAULT_HISTORY_COUNT } from './history-args';

/** The usage text of `history`. */
export const HISTORY_USAGE = `Usage: nomad-restart history [options] [<job> [<run ID prefix>]]

  List the restarts recorded in Nomad, newest first: every run of
  nomad-restart, from a terminal, on AWS Step Functions, by a schedule, from
  the console or in a fleet, leaves a record in its job's history variable
  'nomad-restart/history/<job>' (and a fleet run in the namespace's
  'nomad-restart/history/~fleets'). The table shows when each run started,
  who started it and why (-reason), its options, its outcome, the
  allocations it restarted, failed and planned, and how long it took.

  A run that started but whose record was never finished shows 'running'
  while it still holds the job's lock, and 'started, never finished' once it
  does not (its process was killed, its execution lost).

  Without <job>, the runs of every job of the namespace and its fleet runs,
  merged newest first, with a Job column. With a <run ID prefix> (the ID
  column, or the start of the run's ID), that run in full: every field of
  its record, its errors and, for a fleet run, the job runs linked to it.

  Needs the variables capabilities 'read' and 'list' on
  'nomad-restart/history/*' and 'read' on 'nomad-restart/locks/*' (the
  README's reader policy); no AWS credentials.

  Exits 0, also when no run is recorded; 1 when a run ID prefix matches no
  run or several, or Nomad refuses a read.

History Options:

  -n <count>
    List at most this many runs, the newest. Default = ${DEFAULT_HISTORY_COUNT}

  -fleets
    The namespace's fleet runs only; its one argument is then a run ID
    prefix, to show a fleet run in full.

  -output <text|json>
    'json' prints the records as one JSON array (a run in full: one JSON
    object), each record as stored plus "state": "ended", "running" or
    "never-finished".

${GENERAL_OPTIONS_HELP}`;
