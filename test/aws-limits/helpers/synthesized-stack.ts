/**
 * The deployable stack synthesized in-process (no bundling: the template is what matters), with
 * the props a test chooses, and its state machine definition as the local engine reads it.
 */
import { App } from 'aws-cdk-lib';
import { NomadRestartStack, type NomadRestartStackProps } from '../../../lib/constructs/nomad-restart-stack';
import type { LocalStateMachine } from '../../../lib/engines/local/local-definition';
import { stackOf } from './cached-stack';

export const STACK_NAME = 'NomadRestart';

export interface SynthesizedStack {
  readonly template: Record<string, unknown>;
  readonly stateMachine: LocalStateMachine;
}

export function synthesizeStack(props: Partial<NomadRestartStackProps> = {}): SynthesizedStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  new NomadRestartStack(app, STACK_NAME, { nomadAddress: 'https://nomad.example.internal:4646', ...props });
  return stackOf(app.synth().getStackByName(STACK_NAME).template as Record<string, unknown>);
}
