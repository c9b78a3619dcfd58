/**
 * Errors of the local engine. They describe problems with the template, the synthesis or the
 * bindings the caller supplied, never the workflow's own failures: those come back in
 * `ExecutionResult` with their ASL names (`States.TaskFailed`, a Fail state's `Error`).
 */
import { NamedError } from '../../errors/named-error';

/** Base class for every error the local engine throws. */
export class LocalEngineError extends NamedError {}

/** The template has no (or more than one matching) `AWS::StepFunctions::StateMachine`. */
export class StateMachineNotFoundError extends LocalEngineError {}

/** A CloudFormation intrinsic in the definition cannot be resolved to a local placeholder. */
export class TemplateIntrinsicError extends LocalEngineError {}

/** `cdk.out/<stack>.template.json` is missing or is not JSON. */
export class SynthesizedTemplateNotFoundError extends LocalEngineError {}

/** `cdk synth` exited with an error. */
export class SynthesisFailedError extends LocalEngineError {}

/** A Task state has no local handler, or a callback state has no answerer. */
export class TaskBindingError extends LocalEngineError {}

/** The definition uses something the local engine cannot run (e.g. `startExecution.sync`). */
export class UnsupportedStateError extends LocalEngineError {}

/** The definition is not valid ASL (as judged by `asl-validator`, which the engine runs). */
export class InvalidDefinitionError extends LocalEngineError {}
