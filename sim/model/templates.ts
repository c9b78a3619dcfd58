/**
 * A task's `template` and `vault` blocks as Nomad keeps them: the shapes its decoder checks, the
 * defaults the API fills in (`Template.Canonicalize`, `Vault.Canonicalize` in api/tasks.go), so
 * `GET /v1/job/:id` shows every field as Nomad does, and the server's checks
 * (`Template.Validate` and the destination check of `Task.Validate`, nomad/structs/structs.go).
 */
import { posix } from 'node:path';
import type { ObjectShape } from './job-spec';
import { multiError } from './multi-error';

const DURATION = 'duration' as const;

/** `api.Template`. */
export const TEMPLATE_SHAPE: ObjectShape = {
  go: 'api.Template',
  fields: {
    SourcePath: 'string',
    DestPath: 'string',
    EmbeddedTmpl: 'string',
    ChangeMode: 'string',
    ChangeSignal: 'string',
    ChangeScript: {
      go: 'api.ChangeScript',
      fields: {
        Command: 'string',
        Args: { array: 'string', go: '[]string' },
        Timeout: DURATION,
        FailOnError: 'bool',
        RunOnFirstRender: 'bool',
      },
    },
    Once: 'bool',
    Splay: DURATION,
    Perms: 'string',
    Uid: 'int',
    Gid: 'int',
    LeftDelim: 'string',
    RightDelim: 'string',
    Envvars: 'bool',
    VaultGrace: DURATION,
    Wait: { go: 'api.WaitConfig', fields: { Min: DURATION, Max: DURATION } },
    ErrMissingKey: 'bool',
  },
};

/** `api.Vault`. */
export const VAULT_SHAPE: ObjectShape = {
  go: 'api.Vault',
  fields: {
    Policies: { array: 'string', go: '[]string' },
    Role: 'string',
    Namespace: 'string',
    Cluster: 'string',
    Env: 'bool',
    DisableFile: 'bool',
    ChangeMode: 'string',
    ChangeSignal: 'string',
    AllowTokenExpiration: 'bool',
  },
};

/** A template as a job's JSON carries it (the fields the simulator reads). */
export type TemplateBlock = Record<string, unknown> & {
  SourcePath?: string;
  DestPath?: string;
  EmbeddedTmpl?: string;
  ChangeMode?: string;
  ChangeSignal?: string;
  ChangeScript?: Record<string, unknown> | null;
  Wait?: Record<string, unknown> | null;
  Splay?: number;
  Perms?: string;
  Envvars?: boolean;
};

/**
 * `Template.Canonicalize`, then the agent's conversion to `structs.Template`
 * (command/agent/job_endpoint.go): every field Nomad keeps, the defaults for those left out
 * (`ChangeMode` restart, `Splay` 5 s, `Perms` 0644, `{{`/`}}`...), `null` for an unset pointer.
 */
export function toStructsTemplate(t: TemplateBlock): TemplateBlock {
  const mode = t.ChangeMode ?? 'restart';
  const script = t.ChangeScript;
  const wait = t.Wait;
  return {
    SourcePath: t.SourcePath ?? '',
    DestPath: t.DestPath ?? '',
    EmbeddedTmpl: t.EmbeddedTmpl ?? '',
    ChangeMode: mode,
    ChangeSignal:
      typeof t.ChangeSignal === 'string' ? t.ChangeSignal.toUpperCase() : mode === 'signal' ? 'SIGHUP' : '',
    ChangeScript: script
      ? {
          Command: script['Command'] ?? '',
          Args: script['Args'] ?? [],
          Timeout: script['Timeout'] ?? 5_000_000_000,
          FailOnError: script['FailOnError'] ?? false,
          RunOnFirstRender: script['RunOnFirstRender'] ?? false,
        }
      : null,
    Once: t['Once'] ?? false,
    Splay: t.Splay ?? 5_000_000_000,
    Perms: t.Perms ?? '0644',
    Uid: t['Uid'] ?? null,
    Gid: t['Gid'] ?? null,
    LeftDelim: t['LeftDelim'] ?? '{{',
    RightDelim: t['RightDelim'] ?? '}}',
    Envvars: t.Envvars ?? false,
    VaultGrace: t['VaultGrace'] ?? 0,
    Wait: wait ? { Min: wait['Min'] ?? null, Max: wait['Max'] ?? null } : null,
    ErrMissingKey: t['ErrMissingKey'] ?? false,
  };
}

/** `Vault.Canonicalize`, then `structs.Vault`, which has no `Policies` (Nomad 1.10 dropped them). */
function toStructsVault(v: Record<string, unknown>): Record<string, unknown> {
  return {
    Role: v['Role'] ?? '',
    Namespace: v['Namespace'] ?? '',
    Cluster: v['Cluster'] || 'default',
    Env: v['Env'] ?? true,
    DisableFile: v['DisableFile'] ?? false,
    ChangeMode: v['ChangeMode'] ?? 'restart',
    ChangeSignal: v['ChangeSignal'] ?? 'SIGHUP',
    AllowTokenExpiration: v['AllowTokenExpiration'] ?? false,
  };
}

/**
 * A task's `Templates` and `Vault` as `GET /v1/job/:id` serves them: Nomad's struct forms, and
 * `null` when the task has none (`structs.Task` prints an unset slice or pointer as null, and an
 * empty list of templates is not converted at all).
 */
export function canonicalizeTaskBlocks(task: object): void {
  const t = task as { Templates?: TemplateBlock[] | null; Vault?: Record<string, unknown> | null };
  t.Templates = t.Templates && t.Templates.length > 0 ? t.Templates.map(toStructsTemplate) : null;
  t.Vault = t.Vault ? toStructsVault(t.Vault) : null;
}

const CHANGE_MODES = new Set(['noop', 'restart', 'signal', 'script']);

/** `escapingfs.PathEscapesAllocViaRelative("task", dest)`: whether the destination leaves the allocation directory. */
function escapesAllocation(dest: string): boolean {
  const alloc = '/alloc-dir/alloc-id';
  return posix.relative(alloc, posix.join(alloc, 'task', dest)).startsWith('..');
}

/** `Template.Validate` of one canonical template: Nomad's texts, none when valid. */
function templateErrors(template: TemplateBlock): string[] {
  const errors: string[] = [];
  if (!template.SourcePath && !template.EmbeddedTmpl)
    errors.push('Must specify a source path or have an embedded template');
  if (!template.DestPath) errors.push('Must specify a destination for the template');
  if (escapesAllocation(template.DestPath ?? '')) errors.push('destination escapes allocation directory');
  const mode = template.ChangeMode ?? '';
  if (!CHANGE_MODES.has(mode))
    errors.push('Invalid change mode. Must be one of the following: noop, signal, script, restart');
  if (mode === 'signal' && template.Envvars) errors.push('cannot use signals with env var templates');
  if (mode === 'script' && (template.ChangeScript === undefined || template.ChangeScript === null))
    errors.push('must specify change script configuration value when change mode is script');
  if ((template.Splay ?? 0) < 0) errors.push('Must specify positive splay value');
  const perms = template.Perms ?? '';
  if (perms !== '' && !(/^[0-7]+$/.test(perms) && Number.parseInt(perms, 8) < 4096)) {
    const why = /^[0-7]+$/.test(perms) ? 'value out of range' : 'invalid syntax';
    errors.push(
      `Failed to parse ${JSON.stringify(perms)} as octal: strconv.ParseUint: parsing ${JSON.stringify(perms)}: ${why}`,
    );
  }
  return errors;
}

/**
 * The template part of `Task.Validate`: each template's errors, then shared destinations; on the
 * templates as the server sees them (after the agent's canonicalization).
 */
export function taskTemplateErrors(submitted: readonly TemplateBlock[]): string[] {
  const errors: string[] = [];
  const destinations = new Map<string, number>();
  submitted.map(toStructsTemplate).forEach((template, i) => {
    const own = templateErrors(template);
    if (own.length > 0) errors.push(`Template ${i + 1} validation failed: ${multiError(own)}`);
    const dest = template.DestPath ?? '';
    const other = destinations.get(dest);
    if (other !== undefined) errors.push(`Template ${i + 1} has same destination as ${other}`);
    else destinations.set(dest, i + 1);
  });
  return errors;
}
