/**
 * The three views of each handler's AWS access side by side: what its code can reach
 * (reachable-operations.ts), what its function did under the IAM check in the IAM-checked tests
 * (exercised-operations.ts), and what its role grants (the synthesized template). Two kinds of gap
 * are named: an operation the code can make that no IAM-checked test made (AWS may deny it and no
 * test would know), and a grant no operation of the code needs (least privilege). A grant the
 * Lambda service itself uses for the function (its logs, traces, stream reads, failure
 * destination) is needed when the template gives the function that feature; `s3:ListBucket` is
 * needed by a reader ({@link NEEDED_ALONGSIDE}).
 */
import type { ExercisedRecord } from './exercised-operations';
import type { ReachableOperation } from './reachable-operations';
import { type TemplateIam, workflowFunctionPattern } from './template-iam';

/** One handler's row. */
export interface InventoryRow {
  readonly handler: string;
  readonly reachable: readonly string[];
  readonly exercised: readonly string[];
  readonly granted: readonly string[];
}

/** One gap, as the suite names it. */
export interface InventoryGap {
  readonly handler: string;
  readonly action: string;
  readonly kind: 'not exercised' | 'not needed';
  readonly message: string;
}

type Json = Record<string, unknown>;

/**
 * Actions a reachable one needs beside it. S3 answers a GetObject of a missing key with 403
 * AccessDenied, not 404 NoSuchKey, unless the caller may `s3:ListBucket` the bucket (the
 * GetObject page of the S3 API reference, "Permissions"): the plan store tells a missing document
 * from a denied one only with it.
 */
const NEEDED_ALONGSIDE: Readonly<Record<string, readonly string[]>> = {
  's3:GetObject': ['s3:ListBucket'],
};

/** Grants the Lambda service uses for a function, and the template feature that needs each. */
const SERVICE_USED: readonly {
  actions: readonly string[];
  why: string;
  needed: (t: TemplateIam, fn: string) => boolean;
}[] = [
  {
    actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    why: "Lambda writes the function's log group",
    needed: (t, fn) => t.properties(fn)['LoggingConfig'] !== undefined,
  },
  {
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    why: 'Lambda sends active traces',
    needed: (t, fn) => (t.properties(fn)['TracingConfig'] as Json | undefined)?.['Mode'] === 'Active',
  },
  {
    actions: [
      'dynamodb:ListStreams',
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ],
    why: "Lambda's event source mapping reads the stream",
    needed: (t, fn) => mappingsOf(t, fn).length > 0,
  },
  {
    actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
    why: 'Lambda sends a failed invocation to its on-failure queue',
    needed: (t, fn) =>
      [...mappingsOf(t, fn), ...t.logicalIdsOf('AWS::Lambda::EventInvokeConfig')].some((id) => {
        const p = t.properties(id);
        const target = p['FunctionName'] ?? p['EventSourceArn'];
        return (
          JSON.stringify(target).includes(`"${fn}"`) &&
          JSON.stringify(p['DestinationConfig'] ?? {}).includes('OnFailure')
        );
      }),
  },
];

function mappingsOf(t: TemplateIam, fn: string): string[] {
  return t
    .logicalIdsOf('AWS::Lambda::EventSourceMapping')
    .filter((id) => JSON.stringify(t.properties(id)['FunctionName']).includes(`"${fn}"`));
}

/** Every action an Allow statement of the function's role names. */
function grantedActions(t: TemplateIam, fn: string): string[] {
  const actions = t
    .rolePolicies(t.roleOfFunction(fn))
    .flatMap(({ policy }) =>
      policy.Statement.filter((s) => s['Effect'] === 'Allow').flatMap((s) => [s['Action'] ?? []].flat()),
    )
    .map(String);
  return [...new Set(actions)].sort();
}

/** The rows and the gaps, per handler of the inventory. */
export function compareInventory(
  template: TemplateIam,
  reachable: Readonly<Record<string, readonly ReachableOperation[]>>,
  records: readonly ExercisedRecord[],
): { rows: InventoryRow[]; gaps: InventoryGap[] } {
  const rows: InventoryRow[] = [];
  const gaps: InventoryGap[] = [];
  for (const [handler, operations] of Object.entries(reachable)) {
    const fn = template.functionNamed(workflowFunctionPattern(handler));
    const reach = [...new Set(operations.map((o) => o.action))].sort();
    const exercised = [...new Set(records.flatMap((r) => r.actions[handler] ?? []))].sort();
    const granted = grantedActions(template, fn);
    const serviceUsed = SERVICE_USED.filter((s) => s.needed(template, fn)).flatMap((s) => s.actions);
    rows.push({
      handler,
      reachable: reach,
      exercised,
      granted: granted.filter((a) => !serviceUsed.includes(a)),
    });
    for (const op of operations) {
      if (exercised.includes(op.action)) continue;
      gaps.push({
        handler,
        action: op.action,
        kind: 'not exercised',
        message:
          `${handler}: its code can call ${op.service} ${op.operation} (${op.action}) at ${op.sites.join(', ')} ` +
          `but no IAM-checked test made that call as ${handler}: add a test under useEmulatedAws() ` +
          `(test/iam/helpers/emulated-aws.ts) that walks it with asFunction('${handler}', …)`,
      });
    }
    for (const action of granted) {
      const alongside = reach.flatMap((a) => NEEDED_ALONGSIDE[a] ?? []);
      if (reach.includes(action) || serviceUsed.includes(action) || alongside.includes(action)) continue;
      const service = SERVICE_USED.find((s) => s.actions.includes(action));
      gaps.push({
        handler,
        action,
        kind: 'not needed',
        message:
          `${handler}: its role grants ${action} but no call its code can make needs it` +
          (service === undefined
            ? ''
            : ` and the template gives the function nothing for which ${service.why}`) +
          ': remove the grant (lib/constructs/private/*-grants.ts)',
      });
    }
  }
  return { rows, gaps };
}

/** The rows as a Markdown table (handler | reachable | exercised | granted, less what the Lambda service uses). */
export function inventoryTable(rows: readonly InventoryRow[]): string {
  const list = (actions: readonly string[]) => (actions.length === 0 ? '—' : actions.join(' '));
  return [
    '| handler | reachable | exercised | granted |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.handler} | ${list(r.reachable)} | ${list(r.exercised)} | ${list(r.granted)} |`),
  ].join('\n');
}
