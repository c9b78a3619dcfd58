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
  ChangeScript?: unknown;
  Splay?: number;
  Perms?: string;
  Envvars?: boolean;
};

const TEMPLATE_DEFAULTS = {
  SourcePath: '',
  DestPath: '',
  EmbeddedTmpl: '',
  ChangeMode: 'restart',
  Once: false,
  Splay: 5_000_000_000,
  Perms: '0644',
  LeftDelim: '{{',
  RightDelim: '}}',
  Envvars: false,
  ErrMissingKey: false,
  VaultGrace: 0,
} as const;

/** `Template.Canonicalize`: the defaults of the fields left out; a signal upper-cased, SIGHUP when unset. */
export function canonicalizeTemplate(template: TemplateBlock): void {
  for (const [field, value] of Object.entries(TEMPLATE_DEFAULTS))
    if (template[field] === undefined || template[field] === null) template[field] = value;
  const signal = template.ChangeSignal;
  if (typeof signal === 'string') template.ChangeSignal = signal.toUpperCase();
  else template.ChangeSignal = template.ChangeMode === 'signal' ? 'SIGHUP' : '';
}

const VAULT_DEFAULTS = {
  Env: true,
  DisableFile: false,
  Namespace: '',
  ChangeMode: 'restart',
  ChangeSignal: 'SIGHUP',
  AllowTokenExpiration: false,
} as const;

/** `Vault.Canonicalize`. */
export function canonicalizeVault(vault: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(VAULT_DEFAULTS))
    if (vault[field] === undefined || vault[field] === null) vault[field] = value;
  if (!vault['Cluster']) vault['Cluster'] = 'default';
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

/** The template part of `Task.Validate`: each template's errors, then shared destinations. */
export function taskTemplateErrors(templates: readonly TemplateBlock[]): string[] {
  const errors: string[] = [];
  const destinations = new Map<string, number>();
  templates.forEach((template, i) => {
    const own = templateErrors(template);
    if (own.length > 0) errors.push(`Template ${i + 1} validation failed: ${multiError(own)}`);
    const dest = template.DestPath ?? '';
    const other = destinations.get(dest);
    if (other !== undefined) errors.push(`Template ${i + 1} has same destination as ${other}`);
    else destinations.set(dest, i + 1);
  });
  return errors;
}
