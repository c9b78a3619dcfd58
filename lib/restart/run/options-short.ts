/**
 * A run's options in short, as the flags that would repeat it (`-batch-size=2 -batch-wait=10s
 * -reschedule`): what a run record (lib/history) says the run was asked to do. Only what changes
 * what a run does to the job is listed, and only when it differs from Nomad's default; the job,
 * its namespace and region are the record's own fields, and `-verbose` or `-output` change nothing.
 */
import { parseGoDuration } from '../../go/duration';
import { goQuote } from '../../go/quote';
import { toRestartInput } from '../input';
import {
  DEFAULT_BATCH_WAIT,
  DEFAULT_HEALTHY_DEADLINE,
  DEFAULT_MIN_HEALTHY_TIME,
  DEFAULT_ON_ERROR,
  type RestartOptions,
} from '../options';

/** A flag with its value, quoted as Go's `%q` when a shell would split or expand it. */
export const flag = (name: string, value: string): string =>
  `-${name}=${/^[\w.:%/@+,-]+$/.test(value) ? value : goQuote(value)}`;

/**
 * `options` as flags (Go's `-name=value`), in the order of `nomad job restart`'s help, then ours.
 * The values are formatted as the execution input carries them (`toRestartInput`), so the text
 * repeats the run's input exactly.
 */
export function optionsInShort(options: RestartOptions): string {
  const input = toRestartInput(options);
  const flags: string[] = [];
  const on = (name: string, set: boolean | undefined) => {
    if (set === true) flags.push(`-${name}`);
  };
  on('all-tasks', input.allTasks);
  flags.push(flag('batch-size', String(input.batchSize)));
  if (input.batchWait !== undefined && input.batchWait !== DEFAULT_BATCH_WAIT)
    flags.push(flag('batch-wait', input.batchWait));
  for (const group of input.groups ?? []) flags.push(flag('group', group));
  on('no-shutdown-delay', input.noShutdownDelay);
  if (input.onError !== undefined && input.onError !== DEFAULT_ON_ERROR)
    flags.push(flag('on-error', input.onError));
  on('reschedule', input.reschedule);
  for (const task of input.tasks ?? []) flags.push(flag('task', task));
  on('yes', input.yes);
  if (input.maxErrors !== undefined) flags.push(flag('max-errors', String(input.maxErrors)));
  if (input.replacementTimeout !== undefined)
    flags.push(flag('replacement-timeout', input.replacementTimeout));
  const gate = options.waitHealthy;
  if (gate !== undefined) {
    flags.push('-wait-healthy');
    if (gate.minHealthyTimeNs !== parseGoDuration(DEFAULT_MIN_HEALTHY_TIME))
      flags.push(flag('min-healthy-time', input.minHealthyTime ?? ''));
    if (gate.healthyDeadlineNs !== parseGoDuration(DEFAULT_HEALTHY_DEADLINE))
      flags.push(flag('healthy-deadline', input.healthyDeadline ?? ''));
  }
  if (input.startedBefore !== undefined) flags.push(flag('started-before', input.startedBefore));
  for (const alarm of input.stopOnAlarms ?? []) flags.push(flag('stop-on-alarm', alarm));
  if (input.bakeTime !== undefined) flags.push(flag('bake-time', input.bakeTime));
  return flags.join(' ');
}
