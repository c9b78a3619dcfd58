/**
 * Whether a job is a consumer of the variables (`-uses-variable`) or Vault secrets (`-uses-secret`)
 * a fleet asks about, from the job's own specification: its tasks' templates (`template-reads.ts`)
 * and the variables Nomad lets every task of the job read without a policy. A template read from a
 * file (`SourcePath`) or naming a path that is not a literal cannot be inspected: it is reported,
 * so the plan can say so, never guessed either way.
 */
import { type TemplateRead, templateReads } from './template-reads';

/** `-uses-variable`/`-uses-secret` as given: a path, or with a trailing `*` every path under a prefix. */
export interface PathPattern {
  readonly path: string;
  readonly prefix: boolean;
}

/** A variable a job reads: one path, or every path under a prefix; in the job's namespace unless named. */
export interface VariableRead {
  readonly path: string;
  readonly prefix: boolean;
  readonly namespace?: string;
  /** One of the paths Nomad lets the job's tasks read without a policy (no template names it). */
  readonly implicit?: true;
}

/** A template whose reads the specification does not show, and why. */
export interface OpaqueTemplate {
  /** The template's destination (`DestPath`), as the job names it. */
  readonly template: string;
  /** What it may read that cannot be known: anything (a file), or only variables or secrets. */
  readonly about: 'all' | 'variables' | 'secrets';
  /** In words, for the plan: `read from a file ("<SourcePath>")`, `nomadVar with a path that is not a literal`. */
  readonly why: string;
}

/** What a job's specification says its tasks read. */
export interface JobReads {
  readonly variables: readonly VariableRead[];
  readonly secrets: readonly string[];
  readonly opaque: readonly OpaqueTemplate[];
}

/** The fields of a task template (`api.Template`) the reader needs. */
export interface TemplateSpec {
  readonly EmbeddedTmpl?: string | null;
  readonly SourcePath?: string | null;
  readonly DestPath?: string | null;
  readonly LeftDelim?: string | null;
  readonly RightDelim?: string | null;
}

/** The fields of a task the reader needs. */
export interface TaskSpec {
  readonly Name: string;
  readonly Templates?: readonly TemplateSpec[] | null;
}

/** The fields of Nomad's job specification (`GET /v1/job/:id`) the reader needs. Structural. */
export interface JobSpecTemplates {
  readonly ID: string;
  readonly ParentID?: string;
  readonly TaskGroups?:
    | readonly { readonly Name: string; readonly Tasks?: readonly TaskSpec[] | null }[]
    | null;
}

/** Parses `-uses-variable`/`-uses-secret` text: a trailing `*` makes it a prefix; slashes at the ends go. */
export function parsePathPattern(text: string): PathPattern {
  const trimmed = text.trim();
  if (trimmed.endsWith('*')) return { path: trimmed.slice(0, -1).replace(/^\/+/, ''), prefix: true };
  return { path: trimmed.replace(/^\/+|\/+$/g, ''), prefix: false };
}

/**
 * The variables Nomad lets a job's task read with no policy: `nomad/jobs`, `nomad/jobs/<job>`,
 * `.../<group>`, `.../<group>/<task>`, exactly, no deeper (Nomad's `acl/acl.go`
 * `matchingVariablesCapabilitySet` grants `read` and `list` on these four paths), with the
 * parent's ID for a dispatched or periodic child (its workload identity names the parent job).
 */
export function implicitPaths(jobId: string, group: string, task: string): string[] {
  return [
    'nomad/jobs',
    `nomad/jobs/${jobId}`,
    `nomad/jobs/${jobId}/${group}`,
    `nomad/jobs/${jobId}/${group}/${task}`,
  ];
}

const describeTemplate = (destPath: string | null | undefined, i: number) =>
  destPath === undefined || destPath === null || destPath === '' ? `template ${i + 1}` : destPath;

/** Reads a job's specification: every template's reads, the implicit paths, the opaque templates. */
export function jobReads(job: JobSpecTemplates): JobReads {
  const variables = new Map<string, VariableRead>();
  const secrets = new Set<string>();
  const opaque: OpaqueTemplate[] = [];
  const owner = job.ParentID !== undefined && job.ParentID !== '' ? job.ParentID : job.ID;
  const addVariable = (read: VariableRead) => {
    const key = `${read.namespace ?? ''}\u0000${read.prefix ? '*' : '='}${read.path}`;
    if (!variables.has(key)) variables.set(key, read);
  };
  for (const group of job.TaskGroups ?? []) {
    for (const task of group.Tasks ?? []) {
      for (const path of implicitPaths(owner, group.Name, task.Name))
        addVariable({ path, prefix: false, implicit: true });
      (task.Templates ?? []).forEach((tmpl, i) => {
        const name = describeTemplate(tmpl.DestPath, i);
        const text = tmpl.EmbeddedTmpl ?? '';
        if (text === '' && (tmpl.SourcePath ?? '') !== '') {
          opaque.push({
            template: name,
            about: 'all',
            why: `read from a file (${JSON.stringify(tmpl.SourcePath)})`,
          });
          return;
        }
        const delimiters = { left: tmpl.LeftDelim ?? '', right: tmpl.RightDelim ?? '' };
        for (const read of templateReads(text, delimiters)) addRead(read, name);
      });
    }
  }
  function addRead(read: TemplateRead, template: string): void {
    const ns = (namespace: string | undefined) => (namespace === undefined ? {} : { namespace });
    if (read.kind === 'variable') addVariable({ path: read.path, prefix: false, ...ns(read.namespace) });
    else if (read.kind === 'variable-prefix')
      addVariable({ path: read.prefix, prefix: true, ...ns(read.namespace) });
    else if (read.kind === 'secret') secrets.add(read.path);
    else opaque.push({ template, about: read.about, why: `${read.fn} with a path that is not a literal` });
  }
  return { variables: [...variables.values()], secrets: [...secrets], opaque };
}

/** Whether `pattern` (one path, or every path under a prefix) takes in the variable at `path`. */
export function coversPath(pattern: PathPattern, path: string): boolean {
  return pattern.prefix ? path.startsWith(pattern.path) : path === pattern.path;
}

/** Whether the paths `a` and `b` read or select (each one path or a prefix) can share a variable. */
function overlaps(a: PathPattern, b: PathPattern): boolean {
  if (!b.prefix) return coversPath(a, b.path);
  if (!a.prefix) return coversPath(b, a.path);
  return a.path.startsWith(b.path) || b.path.startsWith(a.path);
}

/** The reads among `reads.variables` that `pattern` selects. */
export function matchingVariableReads(reads: JobReads, pattern: PathPattern): VariableRead[] {
  return reads.variables.filter((read) => overlaps(read, pattern));
}

/**
 * A Vault path with a KV v2 mount's `data/` segment taken out: `vault kv get kv/payments/db` reads
 * what a template writes as `secret "kv/data/payments/db"`. Which mounts are KV v2 only Vault
 * knows (the tool never asks it), so both spellings are taken as one path.
 */
export function kvPath(path: string): string {
  const [mount, second, ...rest] = path.split('/');
  return second === 'data' && rest.length > 0 ? [mount, ...rest].join('/') : path;
}

/** Whether `reads` has a secret `pattern` selects, as written or in the other KV v2 spelling. */
export function readsSecret(reads: JobReads, pattern: PathPattern): boolean {
  const kvPattern: PathPattern = { path: kvPath(pattern.path), prefix: pattern.prefix };
  return reads.secrets.some(
    (path) =>
      overlaps({ path, prefix: false }, pattern) ||
      overlaps({ path: kvPath(path), prefix: false }, kvPattern),
  );
}

/** How a job stands against a fleet's `-uses-variable`/`-uses-secret` paths. */
export type ConsumerVerdict =
  /** It reads one of the paths: `variables` are its reads the `-uses-variable` paths select. */
  | { readonly kind: 'consumer'; readonly variables: readonly VariableRead[] }
  /** Its specification shows no read of the paths, and every template could be read. */
  | { readonly kind: 'not-a-consumer' }
  /** Its specification shows no read of the paths, but a template could not be inspected. */
  | { readonly kind: 'not-inspectable'; readonly templates: readonly OpaqueTemplate[] };

/** Whether a job (its reads) consumes any of the paths asked about. */
export function consumerVerdict(
  reads: JobReads,
  usesVariables: readonly PathPattern[],
  usesSecrets: readonly PathPattern[],
): ConsumerVerdict {
  const variables = usesVariables.flatMap((pattern) => matchingVariableReads(reads, pattern));
  const secret = usesSecrets.some((pattern) => readsSecret(reads, pattern));
  if (variables.length > 0 || secret) return { kind: 'consumer', variables: [...new Set(variables)] };
  const relevant = reads.opaque.filter(
    (t) =>
      t.about === 'all' ||
      (t.about === 'variables' && usesVariables.length > 0) ||
      (t.about === 'secrets' && usesSecrets.length > 0),
  );
  return relevant.length === 0
    ? { kind: 'not-a-consumer' }
    : { kind: 'not-inspectable', templates: relevant };
}
