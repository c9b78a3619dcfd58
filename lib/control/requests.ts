/**
 * Run control: pause, resume and stop a run at its next safe point, from wherever the operator is
 * (a terminal, Slack, the webhook, the console). Step Functions cannot pause an execution, so a
 * request is recorded for the run (beside its lock: the lock table on AWS, the job's request
 * variable in Nomad for a terminal run) and the run reads it at its safe points: before a batch,
 * and before the next job of a fleet. There a `pause` becomes a question through the one-decision
 * machinery ("Paused by … Resume?"), a `resume` answers it, and a `stop` ends the run as a "no"
 * does (summary `canceled`, lock released, nothing half-done).
 */

/** What an operator may ask of a running run. */
export const CONTROL_VERBS = ['pause', 'resume', 'stop'] as const;

/** One of {@link CONTROL_VERBS}. */
export type ControlVerb = (typeof CONTROL_VERBS)[number];

/** Where a request came from; shown with the requester's name. */
export type ControlChannel = 'terminal' | 'slack' | 'webhook' | 'console';

/** A request recorded for a run, attributed. */
export interface ControlRequest {
  readonly verb: ControlVerb;
  /**
   * Who asked, as the channel names them: `alice@laptop` at a terminal, the Slack user ID for a
   * button (`U0AAAAAAA`), the webhook body's `requestedBy`, the console caller's identity.
   */
  readonly requestedBy: string;
  readonly via: ControlChannel;
  /** When it was asked (Unix ms); also tells one request from a newer one of the same verb. */
  readonly at: number;
}

/** Whether `value` is one of {@link CONTROL_VERBS}. */
export function isControlVerb(value: unknown): value is ControlVerb {
  return typeof value === 'string' && (CONTROL_VERBS as readonly string[]).includes(value);
}

/** `alice (Slack U123)`-style attribution of a request, for lines, questions and chat. */
export function describeRequester(request: Pick<ControlRequest, 'requestedBy' | 'via'>): string {
  const channel = { terminal: 'terminal', slack: 'Slack', webhook: 'webhook', console: 'console' }[
    request.via
  ];
  return `${request.requestedBy} (${channel})`;
}
