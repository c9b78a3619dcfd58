/**
 * Errors of chat-ops approvals: one base class and a subclass per way an answer is refused, each
 * with a stable `name` and the HTTP status the approval endpoint answers with. Messages say what
 * was wrong for the person who answered; none holds a secret, a signature or a task token.
 */
import { NamedError } from '../errors/named-error';

/** Base class of every approvals error. */
export abstract class ApprovalError extends NamedError {
  /** The HTTP status the endpoint answers with. */
  public abstract readonly status: number;
}

/** The body cannot be read: not the expected JSON or form, or a field is missing. */
export class MalformedApprovalRequestError extends ApprovalError {
  public readonly status = 400;
}

/** The signature is missing or wrong, or the timestamp is outside the allowed window. */
export class ApprovalSignatureError extends ApprovalError {
  public readonly status = 401;
}

/** The answerer (a chat user, team or channel, or a webhook key) is not on the allow-list. */
export class AnswererNotAllowedError extends ApprovalError {
  public readonly status = 403;
}

/** No question has this approval id (never had, or it has expired). */
export class ApprovalNotFoundError extends ApprovalError {
  public readonly status = 404;

  public constructor(approvalId: string, options?: ErrorOptions) {
    super(`No question with id "${approvalId}"`, options);
  }
}

/** The question timed out (Nomad's default answer applies): it can no longer be answered. */
export class ApprovalExpiredError extends ApprovalError {
  public readonly status = 410;

  public constructor(approvalId: string, options?: ErrorOptions) {
    super(`Question "${approvalId}" has expired and can no longer be answered`, options);
  }
}

/** The same signed request was seen before, and the question it answers is closed. */
export class ApprovalReplayError extends ApprovalError {
  public readonly status = 409;

  public constructor(options?: ErrorOptions) {
    super('This request was already received; a signed request is accepted once', options);
  }
}

/** The reply is not an answer the question accepts (Nomad's `Invalid answer "<text>"`). */
export class InvalidApprovalAnswerError extends ApprovalError {
  public readonly status = 422;
}

/** The decision was taken but Step Functions could not be told (throttled, unavailable): try again. */
export class ApprovalDeliveryError extends ApprovalError {
  public readonly status = 503;
}

/** The channels are misconfigured (a secret of the wrong shape): fix the deployment, not the request. */
export class ApprovalSettingsError extends ApprovalError {
  public readonly status = 500;
}

/** Run control asked of a deployment whose endpoint has no lock table to record it in. */
export class RunControlOffError extends ApprovalError {
  public readonly status = 404;
}
