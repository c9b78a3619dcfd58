/**
 * The construct tests' stack (`synthStack()`, ./synth.ts) through the test template cache
 * (test/fixtures/cached-template.ts): a file that only reads its state machine loads no CDK
 * unless the cache is stale.
 */
import { cachedTemplate } from '../../fixtures/cached-template';
import { type Asl, aslOf } from './asl';

/** The ASL of `synthStack()`'s one-job state machine, synthesized only when the cache is stale. */
export async function cachedTestStackAsl(): Promise<Asl> {
  const template = await cachedTemplate('test-stack', async () =>
    (await import('./synth')).synthStack().template.toJSON(),
  );
  return aslOf(template);
}
