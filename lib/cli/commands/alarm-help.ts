/**
 * The help entries of `-bake-time` and `-stop-on-alarm` (docs/alarms.md), last in the "Options
 * beyond nomad job restart" section of one job's help and a fleet's (which words `-stop-on-alarm`
 * its own way: a fleet does not read the alarms once before it starts, as one job's run does).
 */

/** Each alarm option's help entry, by flag name. */
export const ALARM_OPTIONS_HELP: Readonly<Record<string, string>> = {
  'bake-time': `
  -bake-time=<duration>
    After the last batch, keep reading the '-stop-on-alarm' alarms for this
    long (every 30s, and once at its end) before the run succeeds; an alarm
    in ALARM then ends it as a failed batch does. Needs '-stop-on-alarm' or
    '-wait-healthy'.`,
  'stop-on-alarm': `
  -stop-on-alarm=<name|arn>
    A CloudWatch alarm (its name, or its ARN) to watch: read before each
    batch and every 10s during '-wait-healthy' waits, and in ALARM it stops
    the run as a failed batch does: no further batch, the alarm's name,
    reason and time in the errors, exit 1. Repeatable. With the local engine
    the alarms are read with this machine's AWS credentials and region
    (AWS_PROFILE or AWS_ACCESS_KEY_ID..., AWS_REGION), which need
    cloudwatch:DescribeAlarms only; without them, or for an alarm that does
    not exist, the run is refused before anything is touched.`,
};
