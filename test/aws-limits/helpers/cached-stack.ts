/**
 * The deployable stack with its default props (./synthesized-stack.ts) through the test template
 * cache (test/fixtures/cached-template.ts): a file that reads it loads no CDK unless the cache is stale.
 */
import { extractStateMachineDefinition } from '../../../lib/engines/local';
import { cachedTemplate } from '../../fixtures/cached-template';
import type { SynthesizedStack } from './synthesized-stack';

/** A synthesized template and its restart state machine as the local engine reads it. */
export function stackOf(template: Record<string, unknown>): SynthesizedStack {
  const { definition, stateMachineArn, functionTimeoutsMs } = extractStateMachineDefinition(template, {
    logicalIdPrefix: 'RestartStateMachine',
  });
  return { template, stateMachine: { definition, stateMachineArn, functionTimeoutsMs } };
}

/** `synthesizeStack()` with no props, synthesized only when the cache is stale. */
export async function cachedStack(): Promise<SynthesizedStack> {
  const template = await cachedTemplate(
    'stack',
    async () => (await import('./synthesized-stack')).synthesizeStack().template,
  );
  return stackOf(template);
}
