/**
 * The Go types Nomad evaluates a filter on (`nomad/structs/structs.go`: `Job`, `Allocation`,
 * `Node`), as far as a filter can tell them apart: a struct's unknown field is an error
 * (`couldn't find key: struct field with name "X"`) while a map's missing key is a value that
 * matches nothing; an `int` field compares `5` as a number and refuses `"x"`; a nil pointer
 * `is nil`. Nested structs the simulator has no reason to spell out are `opaque`: their fields
 * are whatever keys the stored JSON has.
 */

/** A Go type, as the evaluator needs it. */
export type Shape =
  | 'string'
  | 'int'
  | 'uint'
  | 'float'
  | 'bool'
  /** `interface{}`: the stored JSON value decides. */
  | 'any'
  /** A struct the simulator does not spell out: its fields are the stored object's keys. */
  | 'opaque'
  | { readonly map: Shape }
  | { readonly list: Shape }
  | { readonly ptr: Shape }
  | { readonly struct: Readonly<Record<string, Shape>> };

const strings: Shape = { list: 'string' };
const stringMap: Shape = { map: 'string' };
const opaquePtr: Shape = { ptr: 'opaque' };
const opaqueList: Shape = { list: opaquePtr };
const constraints: Shape = {
  list: { ptr: { struct: { LTarget: 'string', RTarget: 'string', Operand: 'string' } } },
};

const task: Shape = {
  ptr: {
    struct: {
      Name: 'string',
      Driver: 'string',
      User: 'string',
      Config: { map: 'any' },
      Env: stringMap,
      Services: opaqueList,
      Vault: opaquePtr,
      Consul: opaquePtr,
      Templates: opaqueList,
      Constraints: constraints,
      Affinities: opaqueList,
      Resources: opaquePtr,
      RestartPolicy: opaquePtr,
      DispatchPayload: opaquePtr,
      Lifecycle: opaquePtr,
      Meta: stringMap,
      KillTimeout: 'int',
      LogConfig: opaquePtr,
      Artifacts: opaqueList,
      Leader: 'bool',
      ShutdownDelay: 'int',
      VolumeMounts: opaqueList,
      ScalingPolicies: opaqueList,
      KillSignal: 'string',
      Kind: 'string',
      CSIPluginConfig: opaquePtr,
      Identity: opaquePtr,
      Identities: opaqueList,
      Actions: opaqueList,
      Schedule: opaquePtr,
    },
  },
};

const taskGroup: Shape = {
  ptr: {
    struct: {
      Name: 'string',
      Count: 'int',
      Update: opaquePtr,
      Migrate: opaquePtr,
      Constraints: constraints,
      Scaling: opaquePtr,
      RestartPolicy: opaquePtr,
      Disconnect: opaquePtr,
      Tasks: { list: task },
      EphemeralDisk: opaquePtr,
      Meta: stringMap,
      ReschedulePolicy: opaquePtr,
      Affinities: opaqueList,
      Spreads: opaqueList,
      Networks: opaqueList,
      Consul: opaquePtr,
      Services: opaqueList,
      Volumes: { map: opaquePtr },
      ShutdownDelay: { ptr: 'int' },
      StopAfterClientDisconnect: { ptr: 'int' },
      MaxClientDisconnect: { ptr: 'int' },
      PreventRescheduleOnLost: 'bool',
    },
  },
};

/** `structs.Job`. */
export const JOB: Shape = {
  struct: {
    Stop: 'bool',
    Region: 'string',
    Namespace: 'string',
    ID: 'string',
    ParentID: 'string',
    Name: 'string',
    Type: 'string',
    Priority: 'int',
    AllAtOnce: 'bool',
    Datacenters: strings,
    NodePool: 'string',
    Constraints: constraints,
    Affinities: opaqueList,
    Spreads: opaqueList,
    TaskGroups: { list: taskGroup },
    Update: 'opaque',
    Multiregion: opaquePtr,
    Periodic: opaquePtr,
    ParameterizedJob: opaquePtr,
    Dispatched: 'bool',
    DispatchIdempotencyToken: 'string',
    Payload: 'string',
    Meta: stringMap,
    ConsulToken: 'string',
    ConsulNamespace: 'string',
    VaultToken: 'string',
    VaultNamespace: 'string',
    NomadTokenID: 'string',
    Status: 'string',
    StatusDescription: 'string',
    Stable: 'bool',
    Version: 'uint',
    SubmitTime: 'int',
    CreateIndex: 'uint',
    ModifyIndex: 'uint',
    JobModifyIndex: 'uint',
    UI: opaquePtr,
    VersionTag: opaquePtr,
  },
};

/** `structs.Allocation` (its `Job` is the version it runs). */
export const ALLOCATION: Shape = {
  struct: {
    ID: 'string',
    Namespace: 'string',
    EvalID: 'string',
    Name: 'string',
    NodeID: 'string',
    NodeName: 'string',
    JobID: 'string',
    Job: { ptr: JOB },
    TaskGroup: 'string',
    Resources: opaquePtr,
    AllocatedResources: opaquePtr,
    TaskResources: { map: opaquePtr },
    SharedResources: opaquePtr,
    Metrics: opaquePtr,
    DesiredStatus: 'string',
    DesiredDescription: 'string',
    DesiredTransition: 'opaque',
    ClientStatus: 'string',
    ClientDescription: 'string',
    TaskStates: { map: opaquePtr },
    AllocStates: opaqueList,
    PreviousAllocation: 'string',
    NextAllocation: 'string',
    DeploymentID: 'string',
    DeploymentStatus: opaquePtr,
    RescheduleTracker: opaquePtr,
    NetworkStatus: opaquePtr,
    FollowupEvalID: 'string',
    PreemptedAllocations: strings,
    PreemptedByAllocation: 'string',
    SignedIdentities: stringMap,
    SigningKeyID: 'string',
    CreateIndex: 'uint',
    ModifyIndex: 'uint',
    AllocModifyIndex: 'uint',
    CreateTime: 'int',
    ModifyTime: 'int',
  },
};

/** `structs.Node`. */
export const NODE: Shape = {
  struct: {
    ID: 'string',
    SecretID: 'string',
    Datacenter: 'string',
    Name: 'string',
    HTTPAddr: 'string',
    TLSEnabled: 'bool',
    Attributes: stringMap,
    NodeResources: opaquePtr,
    ReservedResources: opaquePtr,
    Resources: opaquePtr,
    Reserved: opaquePtr,
    Links: stringMap,
    Meta: stringMap,
    NodeClass: 'string',
    NodePool: 'string',
    ComputedClass: 'string',
    DrainStrategy: opaquePtr,
    SchedulingEligibility: 'string',
    Status: 'string',
    StatusDescription: 'string',
    StatusUpdatedAt: 'int',
    Events: opaqueList,
    Drivers: { map: opaquePtr },
    CSIControllerPlugins: { map: opaquePtr },
    CSINodePlugins: { map: opaquePtr },
    HostVolumes: { map: opaquePtr },
    HostNetworks: { map: opaquePtr },
    LastDrain: opaquePtr,
    CreateIndex: 'uint',
    ModifyIndex: 'uint',
  },
};
