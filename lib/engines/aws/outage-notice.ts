/**
 * What the operator is told while AWS throttles this command or cannot be reached. The calls go
 * on being retried (the run goes on in AWS whatever this terminal sees), so the command says so
 * once, on stderr, instead of going quiet or giving up; the lines resume where they stopped when
 * AWS answers again. Short hiccups (the first retries of a call) are not worth a line.
 */
import { goQuote } from '../../go/quote';
import { awsErrorCode, isAwsThrottlingError, isNetworkError } from '../../stores/aws-errors';

/** A call that has failed this many times in a row is an outage worth a line. */
export const NOTICE_AFTER_FAILED_ATTEMPTS = 3;

type OutageKind = 'throttled' | 'unreachable' | 'failing';

function kindOf(error: unknown): OutageKind {
  if (isAwsThrottlingError(error)) return 'throttled';
  return isNetworkError(error) ? 'unreachable' : 'failing';
}

const WHAT: Record<OutageKind, string> = {
  throttled: 'AWS is throttling this command',
  unreachable: 'AWS cannot be reached',
  failing: 'AWS answers with errors',
};

/** Says once per kind of outage (throttled, unreachable, failing) that the run goes on in AWS. */
export class OutageNotice {
  private readonly said = new Set<OutageKind>();
  /** The execution followed now, named in the line. */
  public executionArn = '';

  public constructor(private readonly print: (message: string) => void) {}

  /** `AwsRetryOptions.onRetry`: told of each failed attempt that will be retried. */
  public readonly onRetry = (error: unknown, attempt: number): void => {
    if (attempt < NOTICE_AFTER_FAILED_ATTEMPTS) return;
    const kind = kindOf(error);
    if (this.said.has(kind)) return;
    this.said.add(kind);
    const run = this.executionArn === '' ? 'the run' : `execution ${goQuote(this.executionArn)}`;
    this.print(
      `${WHAT[kind]} (${awsErrorCode(error)}); retrying with backoff. The restart goes on in AWS: ${run} is followed again as soon as AWS answers`,
    );
  };
}
