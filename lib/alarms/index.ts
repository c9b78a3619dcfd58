export { CloudWatchAlarms, DESCRIBE_ALARMS_MAX_NAMES } from './cloudwatch-alarms';
export { AlarmAccessError, AlarmNotFoundError } from './errors';
