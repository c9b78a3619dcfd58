/**
 * What chat shows for a parked question: the question in Nomad's own words, what the last batch
 * did, the job, namespace, region, who started the run, a link to the execution, and the answers
 * Nomad accepts there; once decided, who answered what and when (or that it timed out, or that
 * the run ended first).
 */
import { goQuote } from '../go/quote';
import { toQuestion } from '../restart/prompt-question';
import { plural, TIMESTAMP_PREFIX_LENGTH } from '../restart/text';
import type { Approval, ApprovalDecision } from '../stores/approval-store';
import type { ChatAnswers, ChatChoice, ChatMessage } from './message';
import { PAUSE_QUESTION_KIND } from './run-control';

/** The waits offered as buttons on a batch-wait question; any other Go duration can be typed. */
export const OFFERED_WAITS = ['10s', '1m', '5m'] as const;

/** What a typed answer must be, shown beside the field that takes it. */
export const TYPED_WAIT_HINT = 'A Go duration, read as nomad job restart reads it: 30s, 1m30s, 2h';

/**
 * The answers a question accepts (Nomad's `command/job_restart.go` `shouldProceed`): yes, no, and a
 * wait while the batch wait is `ask`; a pause question's are Resume (yes) and Stop (no).
 */
export function answerChoices(approval: Pick<Approval, 'approvalId' | 'kind' | 'prompt'>): ChatAnswers {
  // A paused run's question (lib/approvals/run-control.ts): yes resumes it, no stops it.
  if (approval.kind === PAUSE_QUESTION_KIND) {
    return {
      approvalId: approval.approvalId,
      choices: [
        { label: 'Resume', reply: 'yes', style: 'primary' },
        { label: 'Stop', reply: 'no', style: 'danger' },
      ],
    };
  }
  const question = toQuestion(approval);
  const choices: ChatChoice[] = [
    { label: 'Proceed', reply: 'yes', style: 'primary' },
    { label: 'Cancel', reply: 'no', style: 'danger' },
  ];
  if (!question.batchWaitAsk) return { approvalId: approval.approvalId, choices };
  for (const wait of OFFERED_WAITS) choices.push({ label: `Proceed, then wait ${wait}`, reply: wait });
  return {
    approvalId: approval.approvalId,
    choices,
    freeText: { label: 'Proceed, then wait…', hint: TYPED_WAIT_HINT },
  };
}

/** The Step Functions console page of an execution, or `undefined` for a local run's id. */
export function executionConsoleUrl(executionArn: string): string | undefined {
  const match = /^arn:(aws[a-z-]*):states:([a-z0-9-]+):\d{12}:execution:[^:]+:[^:]+$/.exec(executionArn);
  if (match === null) return undefined;
  const [, partition, region] = match;
  // The local engine's placeholder ARNs (region "local") have no console page.
  if (region === 'local') return undefined;
  const host = partition === 'aws-cn' ? 'console.amazonaws.cn' : `${region}.console.aws.amazon.com`;
  return `https://${host}/states/home?region=${region}#/v2/executions/details/${executionArn}`;
}

const utc = (seconds: number) =>
  `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The decision in a sentence. */
export function decisionLine(decision: ApprovalDecision): string {
  if (decision.via === 'timeout') {
    return `Nobody answered in time: Nomad's default answer, "${decision.answer}", applied at ${utc(decision.decidedAt)}.`;
  }
  if (decision.via === 'run-ended') {
    return `The run ended before anyone answered: the question was closed at ${utc(decision.decidedAt)}.`;
  }
  const who = `${decision.answeredBy} answered "${decision.answer}" at ${utc(decision.decidedAt)} (${decision.via})`;
  return decision.outcome === 'run-finished'
    ? `${who}, but the run had already finished: nothing changed.`
    : `${who}.`;
}

function contextLines(approval: Approval): string[] {
  const region = approval.region === undefined ? "the agent's region" : `region ${goQuote(approval.region)}`;
  const lines = [`Job ${goQuote(approval.jobId)} in namespace ${goQuote(approval.namespace)}, ${region}`];
  const batch = approval.batch;
  if (batch !== undefined) {
    const errors = approval.summary === '' ? 'without errors' : 'with the errors below';
    lines.push(
      `Batch ${batch.number} of ${batch.count} (${plural(batch.size, 'allocation', 'allocations')}) ran ${errors}`,
    );
  }
  if (approval.totals !== undefined) {
    lines.push(`So far: ${approval.totals.restarted} restarted, ${approval.totals.failed} failed`);
  }
  lines.push(`Started by ${approval.startedBy ?? 'an unnamed caller (the input had no "startedBy")'}`);
  return lines;
}

/** The message for a question: with its answers while pending, with the decision once decided. */
export function questionMessage(approval: Approval): ChatMessage {
  // The prompt as Nomad prints it, without the terminal's 31-space continuation indent.
  const prompt = approval.prompt.split(`\n${' '.repeat(TIMESTAMP_PREFIX_LENGTH)}`).join('\n');
  const url = executionConsoleUrl(approval.executionId);
  const decided = approval.decision;
  return {
    title: `nomad-restart: a question about job ${goQuote(approval.jobId)}`,
    lines: [prompt, ...contextLines(approval), ...(decided === undefined ? [] : [decisionLine(decided)])],
    ...(approval.summary === '' ? {} : { preformatted: approval.summary }),
    ...(url === undefined ? {} : { link: { text: 'Open the execution in the Step Functions console', url } }),
    ...(decided === undefined ? { answers: answerChoices(approval) } : {}),
  };
}
