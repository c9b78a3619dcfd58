/**
 * Errors of the handler layer itself (configuration, secrets). Workflow-routed errors live in
 * `lib/workflow/errors.ts`. Messages name the setting or secret ARN, never a secret value.
 */
import { NamedError } from '../../lib/errors/named-error';

/** Base class of handler-layer errors. */
export class HandlerError extends NamedError {}

/** A middleware option or an environment variable is missing or invalid. */
export class HandlerConfigError extends HandlerError {}

/** A secret could not be read or does not have the expected shape. */
export class NomadSecretError extends HandlerError {}
