/**
 * The full stack's template (test/iam/helpers/full-stack.ts) through the test template cache
 * (test/fixtures/cached-template.ts): a file that reads it loads no CDK unless the cache is stale.
 */
import { cachedTemplate } from '../../fixtures/cached-template';

/** The stack's name in the full app. */
export const FULL_STACK_NAME = 'NomadRestartFull';

/** The full stack's template (no bundling), synthesized only when the cache is stale. */
export function fullStackTemplate(): Promise<Record<string, unknown>> {
  return cachedTemplate('full-stack', async () => (await import('./full-stack')).synthesizeFullStack());
}
