/**
 * Nomad's check of a variable's path (`ValidatePath`, nomad/structs/variables.go): URL-safe
 * characters that do not clash with a template's `@namespace` and `.`, at most 128, and under
 * the reserved `nomad/` only `nomad/jobs…`, `nomad/sentinel…` or one level of `nomad/job-templates/`.
 */

const VALID_PATH = /^[a-zA-Z0-9\-_~/]{1,128}$/;

/** Nomad's error text for `path`, or undefined when Nomad accepts it. */
export function variablePathError(path: string): string | undefined {
  if (path.length === 0) return 'variable requires path';
  if (!VALID_PATH.test(path)) return `invalid path ${JSON.stringify(path)}`;
  const parts = path.split('/');
  if (parts[0] !== 'nomad') return undefined;
  if (parts.length === 1)
    return '"nomad" is a reserved top-level directory path, but you may write variables to "nomad/jobs", "nomad/job-templates", "nomad/sentinel", or below';
  if (parts[1] === 'jobs' || parts[1] === 'sentinel') return undefined;
  if (parts[1] === 'job-templates' && parts.length === 3) return undefined;
  if (parts[1] === 'job-templates')
    return '"nomad/job-templates" is a reserved directory path, but you may write variables at the level below it, for example, "nomad/job-templates/template-name"';
  return 'only paths at "nomad/jobs" or "nomad/job-templates" and below are valid paths under the top-level "nomad" directory';
}
