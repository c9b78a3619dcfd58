/**
 * Property-based fuzzing (fast-check) of what users type and send: the command line (Go-flag
 * parsing and Nomad's validation), the console/schedule input through the real "Validate input"
 * handler, and the approval endpoint's body (Slack interactivity and signed webhook answers,
 * signed or not). Whatever arrives, the answer is a parsed command or Nomad's usage error, a valid
 * input or an `InvalidInput` with a message, a 2xx/4xx answer without a secret: never a crash, a
 * 5xx, a stack trace or an empty message.
 */
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import fc from 'fast-check';
import { APPROVAL_ROUTES, type EndpointDeps, handleApprovalRequest } from '../../lib/approvals';
import { CliUsageError } from '../../lib/cli/commands/errors';
import { parseJobRestartArgs } from '../../lib/cli/commands/job-restart-command';
import {
  buttonPress,
  endpointDeps,
  parkedQuestion,
  SIGNING_SECRET,
  slackBody,
  slackHeaders,
  storeWith,
  TASK_TOKEN,
  WEBHOOK_KEYS,
  webhookHeaders,
} from '../approvals/helpers/approvals';
import { lambdaContext } from '../lambdas/helpers/fixtures';

process.env['POWERTOOLS_LOG_LEVEL'] = 'SILENT';
const { handler: validateInput } = await import('../../lambdas/validate-input');

/** The command's flags, as Go's flag package would meet them (single or double dash, `=v` or not). */
const FLAG_NAMES = [
  'all-tasks',
  'task',
  'group',
  'batch-size',
  'batch-wait',
  'on-error',
  'no-shutdown-delay',
  'reschedule',
  'yes',
  'verbose',
  'dry-run',
  'output',
  'max-errors',
  'replacement-timeout',
  'engine',
  'state-machine-arn',
  'wait-healthy',
  'min-healthy-time',
  'healthy-deadline',
  'address',
  'token',
  'namespace',
  'region',
  'tls-skip-verify',
  'no-color',
  'force-color',
  'not-a-flag',
];

/** Values that sit near the rules: numbers, percentages, durations, keywords, junk. */
const VALUE = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', '10', '50%', '101%', '0%', '1.5', 'ask', 'fail', 'true', 'false'),
  fc.constantFrom('10s', '1m30s', '-5s', '1h', '5', 'µs', '1e3', 'aws', 'local', 'json', 'text', '%', '--'),
  fc.string({ maxLength: 12 }),
);

const TOKEN = fc.oneof(
  fc
    .tuple(fc.constantFrom('-', '--'), fc.constantFrom(...FLAG_NAMES), fc.option(VALUE))
    .map(([dash, name, value]) => (value === null ? [`${dash}${name}`] : [`${dash}${name}=${value}`])),
  fc
    .tuple(fc.constantFrom('-', '--'), fc.constantFrom(...FLAG_NAMES), VALUE)
    .map(([dash, name, value]) => [`${dash}${name}`, value]),
  fc.constantFrom(['web'], ['--'], ['-'], ['-help'], ['web', 'extra']),
  fc.string({ maxLength: 10 }).map((s) => [s]),
);

const ARGS = fc.array(TOKEN, { maxLength: 8 }).map((parts) => parts.flat());

describe('the command line, fuzzed', () => {
  it('parses or answers with a usage error that has a message, whatever the flags', () => {
    // Act / Assert
    fc.assert(
      fc.property(ARGS, fc.boolean(), (args, interactive) => {
        let thrown: unknown;
        try {
          // Nomad takes any one argument as the job ID (even "": a prefix that matches every job).
          parseJobRestartArgs(args, { interactive, env: {} });
        } catch (err) {
          thrown = err;
        }
        if (thrown === undefined) return;
        expect(thrown).toBeInstanceOf(CliUsageError);
        const usage = thrown as CliUsageError;
        expect(usage.message.includes('\n    at ')).toBe(false);
        if (!usage.showHelp) expect(usage.message.trim()).not.toBe('');
      }),
      { numRuns: 2_000 },
    );
  });
});

/** Console and schedule input: every field the schema knows, with right and wrong types. */
const INPUT = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      job: fc.oneof(fc.constantFrom('web', '', ' '), fc.string(), fc.integer()),
      namespace: fc.oneof(fc.string(), fc.constant(null)),
      batchSize: fc.oneof(fc.constantFrom('1', '10%', '0', 'x'), fc.integer(), fc.double()),
      batchWait: fc.oneof(fc.constantFrom('ask', '10s', '-1s', ''), fc.string()),
      onError: fc.constantFrom('ask', 'fail', 'x'),
      yes: fc.oneof(fc.boolean(), fc.string()),
      reschedule: fc.oneof(fc.boolean(), fc.integer()),
      tasks: fc.oneof(fc.array(fc.string()), fc.string()),
      groups: fc.array(fc.string()),
      maxErrors: fc.oneof(fc.constantFrom('0', '10%', '-1'), fc.string()),
      replacementTimeout: fc.oneof(fc.constantFrom('5m', '0s', 'soon'), fc.string()),
      waitHealthy: fc.oneof(fc.boolean(), fc.string()),
      minHealthyTime: fc.oneof(fc.constantFrom('10s', 'x'), fc.string()),
      healthyDeadline: fc.oneof(fc.constantFrom('5m', '-1m'), fc.string()),
      windowEnd: fc.oneof(fc.constantFrom('2026-11-25T18:00:00Z', 'tomorrow', ''), fc.integer(), fc.string()),
      windowDuration: fc.oneof(fc.constantFrom('2h', '0s', 'x'), fc.string()),
      trigger: fc.oneof(fc.constantFrom('schedule', 'console', 'x'), fc.string()),
      scheduleName: fc.oneof(fc.string(), fc.integer()),
      scheduledTime: fc.oneof(fc.constantFrom('2026-11-25T18:00:00Z', 'x'), fc.string()),
      resumeNextWindow: fc.oneof(fc.boolean(), fc.string()),
      unknownField: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

describe('the console and schedule input, fuzzed through the Validate input handler', () => {
  it('returns a run or ends in InvalidInput with a message, never anything else', async () => {
    // Act / Assert
    await fc.assert(
      fc.asyncProperty(INPUT, async (input) => {
        let thrown: unknown;
        try {
          const state = await validateInput({ input, executionId: 'arn:exec:fuzz' }, lambdaContext());
          // The fuzzed fields never include deploymentCheck: every accepted input is a restart's.
          if (!('options' in state)) throw new Error('a restart input was read as a deployment check');
          expect(state.options.job.trim()).not.toBe('');
        } catch (err) {
          thrown = err;
        }
        if (thrown === undefined) return;
        expect((thrown as Error).name).toBe('InvalidInputError');
        expect((thrown as Error).message.trim()).not.toBe('');
        expect((thrown as Error).message.includes('\n    at ')).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('the approval endpoint, fuzzed', () => {
  const sfn = mockClient(SFNClient);
  afterAll(() => sfn.restore());
  const NOW_S = 1_700_000_100;
  // The question parked in every run: some fuzzed answers name it, so the decision path runs too.
  const q = parkedQuestion();
  // Weighted toward what reaches the decision (the parked question's id, a valid reply, a fresh
  // signature): uniform choices reached it about twice in 500 runs, and missed it now and then.
  const APPROVAL_ID = fc.oneof({ arbitrary: fc.constant(q.approvalId), weight: 3 }, fc.string());

  /** What Slack or a webhook could send: near-valid answers, any JSON, any text; signed or not. */
  const REQUEST = fc.record({
    route: fc.constantFrom(APPROVAL_ROUTES.slack, APPROVAL_ROUTES.slack, APPROVAL_ROUTES.webhook, '/other'),
    method: fc.constantFrom('POST', 'POST', 'GET'),
    signed: fc.boolean(),
    body: fc.oneof(
      {
        arbitrary: fc
          .tuple(APPROVAL_ID, fc.oneof(fc.constantFrom('y', 'n', '10s'), fc.string()))
          .map(([id, reply]) => slackBody(buttonPress(id, reply))),
        weight: 3,
      },
      fc.jsonValue().map((v) => slackBody(v)),
      fc
        .record(
          { approvalId: fc.string(), answer: fc.string(), answeredBy: fc.string() },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
    ),
    skewSeconds: fc.oneof(fc.integer({ min: -60, max: 60 }), fc.integer({ min: -1000, max: 1000 })),
  });

  it('answers anything without a 5xx and without a task token or a secret, in the answer or the logs', async () => {
    // Arrange
    sfn.on(SendTaskSuccessCommand).resolves({});
    const logs: string[] = [];
    const log = (message: string, fields: Record<string, unknown>) =>
      logs.push(JSON.stringify({ message, ...fields }));
    let decided = 0;
    const deps = async (): Promise<EndpointDeps> =>
      endpointDeps(
        await storeWith(q),
        NOW_S,
        { info: log, warn: log },
        { tellPrivately: async () => undefined, openModal: async () => undefined },
      );

    // Act / Assert
    await fc.assert(
      fc.asyncProperty(REQUEST, async ({ route, method, signed, body, skewSeconds }) => {
        const at = NOW_S + skewSeconds;
        const headers: Record<string, string> = !signed
          ? {}
          : route === APPROVAL_ROUTES.webhook
            ? webhookHeaders(body, at, 'ops', WEBHOOK_KEYS.ops)
            : slackHeaders(body, at);
        const response = await handleApprovalRequest(await deps(), { method, path: route, headers, body });
        expect(response.statusCode).toBeLessThan(500);
        if (response.statusCode === 200) decided += 1;
        const seen = JSON.stringify(response) + logs.join('\n');
        for (const secret of [TASK_TOKEN, SIGNING_SECRET, WEBHOOK_KEYS.ops, WEBHOOK_KEYS.notify]) {
          expect(seen.includes(secret)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
    // The fuzz reached the decision, not only the refusals.
    expect(decided).toBeGreaterThan(0);
    expect(sfn.commandCalls(SendTaskSuccessCommand).length).toBeGreaterThan(0);
  });
});
