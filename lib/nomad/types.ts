/**
 * Nomad HTTP API objects, in Nomad's PascalCase, holding the fields this project reads or
 * the simulator serves. Field names and meanings follow `hashicorp/nomad` `api/*.go`.
 *
 * Optional (`?`) marks a field that real Nomad may omit, or that an old or pruned object may
 * lack: decoders must turn a missing value into `undefined`, never into a crash. In
 * particular an allocation's `Job`, a job's `Type`, an allocation's `TaskStates` and a job
 * list stub's `JobSummary` may all be absent.
 */
export type * from './allocation-types';
export type * from './job-types';
