/**
 * Decoding and validation of a job submitted as JSON (`PUT /v1/jobs`, `nomad job run
 * -output`), with the texts Go's `encoding/json` and Nomad's `Job.Validate` produce.
 * Unknown fields are ignored (as Go does); known fields of the wrong type are refused.
 */
import type { Job, TaskGroup } from '../../lib/nomad/types';
import { SimHttpError } from '../errors';
import { multiError } from './multi-error';
import {
  canonicalizeTaskBlocks,
  TEMPLATE_SHAPE,
  type TemplateBlock,
  taskTemplateErrors,
  VAULT_SHAPE,
} from './templates';

/** A Go scalar the decoder checks (`duration`: nanoseconds). */
export type Scalar = 'string' | 'int' | 'duration' | 'bool' | 'any';
/** A Go struct the decoder checks: its name and its fields' shapes. */
export interface ObjectShape {
  go: string;
  fields: Record<string, Shape>;
}
/** What the decoder checks a JSON value against. */
export type Shape = Scalar | ObjectShape | { array: Shape; go: string } | { map: Shape; go: string };

const CONSTRAINT: ObjectShape = {
  go: 'api.Constraint',
  fields: { LTarget: 'string', RTarget: 'string', Operand: 'string' },
};
const CONSTRAINTS = { array: CONSTRAINT, go: '[]*api.Constraint' };
const UPDATE: ObjectShape = {
  go: 'api.UpdateStrategy',
  fields: {
    MaxParallel: 'int',
    Canary: 'int',
    AutoPromote: 'bool',
    AutoRevert: 'bool',
    HealthCheck: 'string',
    MinHealthyTime: 'duration',
    HealthyDeadline: 'duration',
    ProgressDeadline: 'duration',
    Stagger: 'duration',
  },
};
const STRINGS = { array: 'string' as const, go: '[]string' };
const SERVICES = {
  array: {
    go: 'api.Service',
    fields: {
      Name: 'string',
      Provider: 'string',
      PortLabel: 'string',
      TaskName: 'string',
      Tags: STRINGS,
      Checks: {
        array: {
          go: 'api.ServiceCheck',
          fields: {
            Name: 'string',
            Type: 'string',
            Interval: 'duration',
            Timeout: 'duration',
            Path: 'string',
            Method: 'string',
            Protocol: 'string',
            PortLabel: 'string',
            OnUpdate: 'string',
            InitialStatus: 'string',
          },
        },
        go: '[]api.ServiceCheck',
      },
    },
  },
  go: '[]*api.Service',
} as const;
const TASK: ObjectShape = {
  go: 'api.Task',
  fields: {
    Name: 'string',
    Driver: 'string',
    Config: { map: 'any', go: 'map[string]interface {}' },
    Env: { map: 'string', go: 'map[string]string' },
    Lifecycle: { go: 'api.TaskLifecycle', fields: { Hook: 'string', Sidecar: 'bool' } },
    ShutdownDelay: 'duration',
    KillTimeout: 'duration',
    Constraints: CONSTRAINTS,
    Services: SERVICES,
    Templates: { array: TEMPLATE_SHAPE, go: '[]*api.Template' },
    Vault: VAULT_SHAPE,
  },
};
const GROUP: ObjectShape = {
  go: 'api.TaskGroup',
  fields: {
    Name: 'string',
    Count: 'int',
    Tasks: { array: TASK, go: '[]*api.Task' },
    ShutdownDelay: 'duration',
    MaxClientDisconnect: 'duration',
    Disconnect: {
      go: 'api.DisconnectStrategy',
      fields: { LostAfter: 'duration', Replace: 'bool', Reconcile: 'string', StopOnClientAfter: 'duration' },
    },
    Update: UPDATE,
    Constraints: CONSTRAINTS,
    Meta: { map: 'string', go: 'map[string]string' },
    Services: SERVICES,
    RestartPolicy: {
      go: 'api.RestartPolicy',
      fields: { Attempts: 'int', Interval: 'duration', Delay: 'duration', Mode: 'string' },
    },
  },
};
const JOB: ObjectShape = {
  go: 'api.Job',
  fields: {
    ID: 'string',
    Name: 'string',
    Namespace: 'string',
    Region: 'string',
    ParentID: 'string',
    Type: 'string',
    Priority: 'int',
    AllAtOnce: 'bool',
    Datacenters: STRINGS,
    NodePool: 'string',
    Constraints: CONSTRAINTS,
    TaskGroups: { array: GROUP, go: '[]*api.TaskGroup' },
    Update: UPDATE,
    Multiregion: {
      go: 'api.Multiregion',
      fields: {
        Regions: {
          array: {
            go: 'api.MultiregionRegion',
            fields: { Name: 'string', Count: 'int', Datacenters: STRINGS },
          },
          go: '[]*api.MultiregionRegion',
        },
      },
    },
    Periodic: { map: 'any', go: 'api.PeriodicConfig' },
    ParameterizedJob: { map: 'any', go: 'api.ParameterizedJobConfig' },
    Stop: 'bool',
    Dispatched: 'bool',
    Meta: { map: 'string', go: 'map[string]string' },
  },
};

const GO_SCALAR: Record<Exclude<Scalar, 'any'>, string> = {
  string: 'string',
  int: 'int',
  duration: 'time.Duration',
  bool: 'bool',
};

/** Go's `encoding/json` name for a JSON value, as used in "cannot unmarshal X". */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : `number ${value}`;
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/**
 * Go's `UnmarshalTypeError` text (Go 1.24+, which Nomad 1.10+ is built with): the struct named
 * is the one that holds the field, followed by the field's full path from the top.
 */
function typeError(owner: string, path: string[], value: unknown, goType: string): SimHttpError {
  return new SimHttpError(
    400,
    `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${[owner, ...path].join('.')} of type ${goType}`,
  );
}

/** `api.TaskGroup` → `TaskGroup`. */
function structName(go: string): string {
  return go.slice(go.lastIndexOf('.') + 1);
}

/**
 * Checks `value` against `shape`; `owner` is the Go struct holding the field at `path`, or
 * with `fixed` the name every message starts with (scenario files name the job's place).
 */
function check(value: unknown, shape: Shape, owner: string, path: string[], fixed = false): void {
  if (value === null || value === undefined || shape === 'any') return;
  if (typeof shape === 'string') {
    const ok =
      shape === 'string'
        ? typeof value === 'string'
        : shape === 'bool'
          ? typeof value === 'boolean'
          : typeof value === 'number' && Number.isInteger(value);
    if (!ok) throw typeError(owner, path, value, GO_SCALAR[shape]);
    return;
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) throw typeError(owner, path, value, shape.go);
    for (const item of value) check(item, shape.array, owner, path, fixed);
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(owner, path, value, shape.go);
  const record = value as Record<string, unknown>;
  if ('map' in shape) {
    for (const item of Object.values(record)) check(item, shape.map, owner, path, fixed);
    return;
  }
  for (const [name, fieldShape] of Object.entries(shape.fields)) {
    check(record[name], fieldShape, fixed ? owner : structName(shape.go), [...path, name], fixed);
  }
}

/**
 * Parses a request body the way Go's decoder would, turning syntax errors into Go's texts.
 * @throws SimHttpError 400 with Go's message.
 */
export function parseJsonBody(body: string, status = 400): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new SimHttpError(status, goSyntaxError(body, error), { cause: error });
  }
}

/** V8's complaint → the context Go's scanner names in its message. */
const GO_CONTEXT: Array<[RegExp, string]> = [
  [/after property name/, 'after object key'],
  [/after property value/, 'after object key:value pair'],
  [/after array element/, 'after array element'],
  [/Expected property name/, 'looking for beginning of object key string'],
];

function goSyntaxError(body: string, error: unknown): string {
  if (body.trim() === '') return 'EOF';
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message)?.[1];
  const at = position !== undefined ? Number(position) : undefined;
  if (
    /end of (JSON )?input|Unterminated/i.test(message) ||
    (at !== undefined && at >= body.trimEnd().length)
  ) {
    return 'unexpected EOF';
  }
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  const char = token ?? (at !== undefined ? body.charAt(at) : body.trim().charAt(0));
  const context = GO_CONTEXT.find(([re]) => re.test(message))?.[1] ?? 'looking for beginning of value';
  return `invalid character '${char}' ${context}`;
}

/**
 * Checks a decoded `{"Job": {...}}` register body and returns the job, with the checks the
 * HTTP agent makes before the server sees the job.
 * @throws SimHttpError 400 `Job must be specified`, `Job ID hasn't been provided`, or a Go
 * type-mismatch text.
 */
export function decodeRegisterBody(body: unknown): Job {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SimHttpError(
      400,
      `json: cannot unmarshal ${jsonKind(body)} into Go value of type api.JobRegisterRequest`,
    );
  }
  const job = (body as Record<string, unknown>)['Job'];
  if (job === undefined || job === null) throw new SimHttpError(400, 'Job must be specified');
  check(job, JOB, 'JobRegisterRequest', ['Job']);
  const id = (job as Record<string, unknown>)['ID'];
  if (id === undefined || id === null) throw new SimHttpError(400, "Job ID hasn't been provided");
  return job as Job;
}

/** Checks a job given directly (scenario files, control API) against the same shapes. */
export function decodeJob(value: unknown, root = 'Job'): Job {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SimHttpError(400, `json: cannot unmarshal ${jsonKind(value)} into Go value of type api.Job`);
  }
  check(value, JOB, root, [], true);
  return value as Job;
}

/** A task's templates (`Templates`, which the shared `Task` type leaves to the simulator). */
function templatesOf(task: object): TemplateBlock[] {
  return (task as { Templates?: TemplateBlock[] | null }).Templates ?? [];
}

const JOB_TYPES = new Set(['service', 'batch', 'system', 'sysbatch']);
const HOOKS = new Set(['prestart', 'poststart', 'poststop']);
const RECONCILE = new Set(['best_score', 'keep_original', 'keep_replacement', 'longest_running']);

function validateGroup(group: TaskGroup, index: number): string[] {
  const errors: string[] = [];
  if (!group.Name) errors.push(`Job task group ${index + 1} missing name`);
  if ((group.Count ?? 1) < 0) errors.push("Task group count can't be negative");
  const tasks = group.Tasks ?? [];
  if (tasks.length === 0) errors.push('Missing tasks for task group');
  const seen = new Map<string, number>();
  tasks.forEach((task, i) => {
    const earlier = seen.get(task.Name);
    if (!task.Name) errors.push(`Task ${i + 1} missing name`);
    else if (earlier !== undefined)
      errors.push(`Task ${i + 1} redefines '${task.Name}' from task ${earlier + 1}`);
    else seen.set(task.Name, i);
  });
  // A task with a lifecycle hook is not a main task, and a group needs one.
  if (tasks.length > 0 && tasks.every((task) => task.Lifecycle?.Hook))
    errors.push(`Task group ${group.Name} must have at least one main task`);
  const reconcile = group.Disconnect?.Reconcile;
  if (reconcile && !RECONCILE.has(reconcile)) errors.push(`invalid reconcile option: ${reconcile}`);
  for (const task of tasks) {
    const hook = task.Lifecycle?.Hook;
    const taskErrors =
      task.Lifecycle && !HOOKS.has(hook ?? '') ? [`Lifecycle validation failed: invalid hook: ${hook}`] : [];
    taskErrors.push(...taskTemplateErrors(templatesOf(task)));
    if (taskErrors.length > 0) errors.push(`Task ${task.Name} validation failed: ${multiError(taskErrors)}`);
  }
  return errors;
}

/**
 * Nomad's `Job.Validate` for the fields the simulator models, then the register hook's
 * priority check. The server refuses the job, so the HTTP answer is a 500 (only the agent's
 * own checks in {@link decodeRegisterBody} are 400s).
 * @throws SimHttpError 500 with go-multierror text, e.g. `Task group count can't be negative`.
 */
export function validateJob(job: Job): void {
  const errors: string[] = [];
  if (!job.ID) errors.push('Missing job ID');
  else if (job.ID.includes(' ')) errors.push('Job ID contains a space');
  // The API's canonicalisation names a job without a name after its ID.
  if (!(job.Name || job.ID)) errors.push('Missing job name');
  if (job.Type !== undefined && !JOB_TYPES.has(job.Type)) errors.push(`Invalid job type: "${job.Type}"`);
  const groups = job.TaskGroups ?? [];
  if (groups.length === 0) errors.push('Missing job task groups');
  const names = new Map<string, number>();
  groups.forEach((group, i) => {
    const earlier = names.get(group.Name);
    if (earlier !== undefined) {
      errors.push(`Job task group ${i + 1} redefines '${group.Name}' from group ${earlier + 1}`);
    }
    names.set(group.Name, i);
    const groupErrors = validateGroup(group, i);
    if (groupErrors.length > 0) {
      errors.push(`Task group ${group.Name} validation failed: ${multiError(groupErrors)}`);
    }
  });
  if (job.Priority !== undefined && (job.Priority < 1 || job.Priority > 100)) {
    errors.push('job priority must be between [1, 100]');
  }
  if (errors.length > 0) throw new SimHttpError(500, multiError(errors));
}

/** Nomad's API canonicalisation: the defaults a registered job carries. */
export function canonicalizeJob(job: Job, namespace: string): Job {
  const copy = structuredClone(job);
  copy.Namespace = namespace;
  copy.Name = copy.Name || copy.ID;
  copy.Type = copy.Type || 'service';
  copy.Priority = copy.Priority ?? 50;
  copy.Region = copy.Region || 'global';
  copy.Datacenters = copy.Datacenters && copy.Datacenters.length > 0 ? copy.Datacenters : ['*'];
  copy.Stop = copy.Stop ?? false;
  copy.ParentID = copy.ParentID ?? '';
  // The server puts a job without a pool in its namespace's default pool, `default` here.
  const pooled = copy as Job & { NodePool?: string };
  pooled.NodePool = pooled.NodePool || 'default';
  for (const group of copy.TaskGroups ?? []) {
    group.Count = group.Count ?? 1;
    for (const task of group.Tasks ?? []) {
      task.KillTimeout = task.KillTimeout ?? 5_000_000_000;
      task.ShutdownDelay = task.ShutdownDelay ?? 0;
      canonicalizeTaskBlocks(task);
    }
  }
  return copy;
}

/** The part of a job whose change makes a new version (indexes and status excluded). */
export function specOf(job: Job): string {
  const {
    Version: _v,
    CreateIndex: _c,
    ModifyIndex: _m,
    JobModifyIndex: _j,
    SubmitTime: _s,
    Status: _st,
    ...spec
  } = job;
  return JSON.stringify(spec);
}
