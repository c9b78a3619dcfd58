/**
 * Reads a run's progress back from its thread item: checked field by field, so a tampered or
 * foreign item is ignored rather than shown.
 */
import * as z from 'zod';
import type { RunProgress } from './run-progress';

const schema = z.object({
  runId: z.string().min(1),
  executionId: z.string().min(1),
  jobId: z.string(),
  namespace: z.string(),
  startedBy: z.string(),
  startedAt: z.number(),
  allocationCount: z.number(),
  batchCount: z.number(),
  batchSize: z.number(),
  batchesDone: z.number(),
  restarted: z.number(),
  failed: z.number(),
  windowEnd: z.number().optional(),
  healthGate: z.string().optional(),
  waitingForHealthSince: z.number().optional(),
  at: z.number(),
});

/** The progress `value` holds, or `undefined` when it is not one. */
export function decodeRunProgress(value: unknown): RunProgress | undefined {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return undefined;
  const { windowEnd, healthGate, waitingForHealthSince, ...rest } = parsed.data;
  return {
    ...rest,
    ...(windowEnd === undefined ? {} : { windowEnd }),
    ...(healthGate === undefined ? {} : { healthGate }),
    ...(waitingForHealthSince === undefined ? {} : { waitingForHealthSince }),
  };
}
