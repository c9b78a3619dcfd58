/**
 * EventBridge Scheduler's expressions and time zones, checked at `cdk synth`: CloudFormation
 * would accept a bad cron and fail the deployment (or never fire), so a schedule that cannot
 * work stops the synth with the reason instead.
 */
import cronValidateModule from 'cron-validate';

// cron-validate is CommonJS with `exports.default`: imported from an ES module, its default
// export is the exports object, not the function its types describe.
const cronValidate: typeof cronValidateModule =
  (cronValidateModule as unknown as { default?: typeof cronValidateModule }).default ?? cronValidateModule;

const CRON = /^cron\((.*)\)$/;
const RATE = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/;
const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

/**
 * Why `expression` is not a Scheduler expression (`cron(...)` with six fields, `rate(n unit)`,
 * or `at(yyyy-mm-ddThh:mm:ss)`), or `undefined` when it is one.
 */
export function scheduleExpressionProblem(expression: string): string | undefined {
  const cron = CRON.exec(expression);
  if (cron !== null) {
    // The "aws-cloud-watch" preset is EventBridge's cron: six fields (minutes, hours,
    // day-of-month, month, day-of-week, year), exactly one of the day fields "?", L, W and #.
    const result = cronValidate(cron[1] ?? '', { preset: 'aws-cloud-watch' });
    if (result.isValid()) return undefined;
    return result.getError()[0]?.replace(/ \(Input cron: '.*'\)$/, '') ?? 'invalid cron expression';
  }
  const rate = RATE.exec(expression);
  if (rate !== null) {
    const value = Number(rate[1]);
    const unit = rate[2] ?? '';
    if (value < 1) return 'a rate must be at least 1';
    // Scheduler refuses "rate(1 hours)" and "rate(2 hour)".
    if ((value === 1) !== !unit.endsWith('s')) {
      return `the unit must be ${value === 1 ? 'singular' : 'plural'} for ${value}`;
    }
    return undefined;
  }
  const at = AT.exec(expression);
  if (at !== null) {
    return Number.isNaN(Date.parse(`${at[1]}Z`)) ? 'not a date and time' : undefined;
  }
  return 'expected cron(minutes hours day-of-month month day-of-week year), rate(value unit) or at(yyyy-mm-ddThh:mm:ss)';
}

/** Whether `zone` is an IANA time zone name this runtime knows (as Scheduler does). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
