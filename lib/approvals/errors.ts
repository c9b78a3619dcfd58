/**
 * Errors of chat-ops approvals: one base class and a subclass per way an answer is refused, each
 * with a stable `name` and the HTTP status the approval endpoint answers with. Messages say what
 * was wrong for the person who answered; none holds a secret, a signature or a task token.
 */

/** Base class of every approvals error. `status` is what the endpoint answers with. */
export class ApprovalError extends Error {
  public readonly status: number;

  public constructor(message: string, status: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApprovalError';
    this.status = status;
  }
}

/** The body cannot be read: not the expected JSON or form, or a field is missing. */
export class MalformedApprovalRequestError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 400, options);
    this.name = 'MalformedApprovalRequestError';
  }
}

/** The signature is missing or wrong, or the timestamp is outside the allowed window. */
export class ApprovalSignatureError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 401, options);
    this.name = 'ApprovalSignatureError';
  }
}

/** The answerer (a chat user, team or channel, or a webhook key) is not on the allow-list. */
export class AnswererNotAllowedError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 403, options);
    this.name = 'AnswererNotAllowedError';
  }
}

/** No question has this approval id (never had, or it has expired). */
export class ApprovalNotFoundError extends ApprovalError {
  public constructor(approvalId: string, options?: ErrorOptions) {
    super(`No question with id "${approvalId}"`, 404, options);
    this.name = 'ApprovalNotFoundError';
  }
}

/** The question timed out (Nomad's default answer applies): it can no longer be answered. */
export class ApprovalExpiredError extends ApprovalError {
  public constructor(approvalId: string, options?: ErrorOptions) {
    super(`Question "${approvalId}" has expired and can no longer be answered`, 410, options);
    this.name = 'ApprovalExpiredError';
  }
}

/** The same signed request was seen before, and the question it answers is closed. */
export class ApprovalReplayError extends ApprovalError {
  public constructor(options?: ErrorOptions) {
    super('This request was already received; a signed request is accepted once', 409, options);
    this.name = 'ApprovalReplayError';
  }
}

/** The reply is not an answer the question accepts (Nomad's `Invalid answer "<text>"`). */
export class InvalidApprovalAnswerError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 422, options);
    this.name = 'InvalidApprovalAnswerError';
  }
}

/** The decision was taken but Step Functions could not be told (throttled, unavailable): try again. */
export class ApprovalDeliveryError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 503, options);
    this.name = 'ApprovalDeliveryError';
  }
}

/** The channels are misconfigured (a secret of the wrong shape): fix the deployment, not the request. */
export class ApprovalSettingsError extends ApprovalError {
  public constructor(message: string, options?: ErrorOptions) {
    super(message, 500, options);
    this.name = 'ApprovalSettingsError';
  }
}
