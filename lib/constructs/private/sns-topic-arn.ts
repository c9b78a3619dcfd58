/**
 * What an alarm topic's ARN looks like, shared by the `alarmTopicArn` context key
 * (stack-context.ts) and the stack's prop (nomad-restart-stack.ts), so both refuse the same values.
 */

/**
 * An SNS topic's ARN: partition, region, 12-digit account, and a name of letters, digits, `-`
 * and `_` (a FIFO topic's ends with `.fifo`).
 */
export const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;
