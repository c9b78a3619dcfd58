/**
 * The run ends docs/notifications.md shows a message for, one per way a run ends, as an ended
 * execution (and the run's record, where the message reads it). run-ended-doc.unit.test.ts renders
 * each with the real message builder and checks that the doc shows exactly that.
 */
import type { FreshnessReport } from '../../../lib/restart/events';
import { validateExecutionInput } from '../../../lib/restart/execution-input';
import { type RunFacts, summarizeRun } from '../../../lib/restart/run-summary';
import type { EndedExecution } from '../../../lib/workflow/ended-execution';
import type { RunRecordView } from '../../../lib/workflow/run-end';
import { runFacts } from '../../restart/helpers/run-facts';

const START = Date.parse('2026-11-29T02:00:00.113Z');
const STOP = Date.parse('2026-11-29T02:41:12.906Z');
const ARN = 'arn:aws:states:eu-central-1:123456789012:execution:NomadRestart-Restart:weekly-example-7f3a';
const SCHEDULED = {
  trigger: 'schedule',
  scheduleName: 'weekly-example',
  scheduledTime: '2026-11-29T02:00:00Z',
};
const INPUT = JSON.stringify({ job: 'example', batchSize: '10%', onError: 'fail', yes: true, ...SCHEDULED });
const ERROR = 'Error restarting allocation "3b0c5a1e": Unexpected response code: 500 (Task not running)';
const DENIED = 'Error restarting allocation "3b0c5a1e": Unexpected response code: 403 (Permission denied)';

const facts = (over: Partial<RunFacts>): RunFacts =>
  runFacts({
    startedAt: START,
    finishedAt: STOP,
    scheduleName: 'weekly-example',
    scheduledTime: Date.parse(SCHEDULED.scheduledTime),
    ...over,
  });

const succeeded = (over: Partial<RunFacts>): EndedExecution => ({
  executionArn: ARN,
  status: 'SUCCEEDED',
  startDate: START,
  stopDate: STOP,
  input: INPUT,
  output: JSON.stringify(summarizeRun(facts(over))),
});

const failed = (error: string, cause: string, input = INPUT): EndedExecution => ({
  executionArn: ARN,
  status: 'FAILED',
  startDate: START,
  stopDate: STOP,
  input,
  error,
  cause,
});

const invalidInput = (() => {
  try {
    validateExecutionInput({ job: 'example', batchSize: '0' });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the sample input is valid');
})();

/** The freshness report of a run that restarted 10 allocations after a rotation, `stale` still stale. */
const freshness = (stale: FreshnessReport['stale']): FreshnessReport => ({
  namespace: 'default',
  jobId: 'example',
  startedBefore: Date.parse('2026-11-29T01:45:00Z'),
  checked: 12,
  restarted: 10 - stale.length,
  alreadyFresh: 2,
  stale,
});

const RECORD: RunRecordView = {
  errors: [{ message: ERROR }],
  counts: { planned: 10, restarted: 3, failed: 1, skipped: { notRunning: 1 } },
};

/** One sample per way a run ends. */
export const RUN_END_SAMPLES: readonly {
  readonly ending: string;
  readonly ended: EndedExecution;
  readonly record?: RunRecordView;
}[] = [
  { ending: 'succeeded', ended: succeeded({ skipped: { notRunning: 1 } }) },
  {
    ending: 'finished with errors',
    ended: failed(
      'RestartFailed',
      summarizeRun(facts({ outcome: 'failed', restarted: 1, failed: 1, errors: [ERROR] })).text,
    ),
  },
  { ending: 'canceled', ended: succeeded({ outcome: 'canceled', restarted: 2 }) },
  {
    ending: 'stopped on an unrecoverable error',
    ended: failed(
      'UnrecoverableError',
      summarizeRun(facts({ outcome: 'unrecoverable', restarted: 0, failed: 1, errors: [DENIED] })).text,
    ),
  },
  {
    ending: 'stopped at the window end',
    ended: succeeded({
      outcome: 'stopped-at-window-end',
      restarted: 4,
      windowEnd: Date.parse('2026-11-29T04:00:00Z'),
      windowReached: true,
    }),
  },
  {
    ending: 'skipped because locked',
    ended: succeeded({
      outcome: 'skipped-job-locked',
      planned: 0,
      restarted: 0,
      lockedBy: 'arn:aws:states:eu-central-1:123456789012:execution:NomadRestart-Restart:example-by-hand',
    }),
  },
  {
    ending: 'made every allocation fresh (startedBefore)',
    ended: succeeded({ skipped: { alreadyFresh: 2 }, freshness: freshness([]) }),
  },
  {
    ending: 'succeeded but left an allocation stale (startedBefore)',
    ended: succeeded({
      restarted: 10,
      skipped: { alreadyFresh: 2 },
      freshness: freshness([{ allocationId: '3b0c5a1e-83c1-4a39-b7a4-0f4d1d6c2e11', why: 'failed' }]),
    }),
  },
  {
    ending: 'failed: invalid input',
    ended: failed('InvalidInput', invalidInput, JSON.stringify({ job: 'example', batchSize: '0' })),
  },
  {
    ending: 'failed: job deleted since',
    ended: failed('JobNotFound', 'No job(s) with prefix or ID "example" found'),
  },
  {
    ending: 'timed out',
    ended: {
      executionArn: ARN,
      status: 'TIMED_OUT',
      startDate: START,
      stopDate: STOP,
      input: INPUT,
      error: 'States.Timeout',
    },
    record: RECORD,
  },
  {
    ending: 'aborted',
    ended: { executionArn: ARN, status: 'ABORTED', startDate: START, stopDate: STOP, input: INPUT },
    record: RECORD,
  },
];
