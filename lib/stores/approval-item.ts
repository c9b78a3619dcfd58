/**
 * Decodes an approval item read back from DynamoDB: required attributes must be there with
 * their types, optional ones are checked when present, so a tampered or foreign item is refused
 * instead of trusted.
 */
import type { Approval } from './approval-store';
import { StoreDecodeError } from './errors';

const STRING_FIELDS = [
  'approvalId',
  'executionId',
  'taskToken',
  'kind',
  'prompt',
  'summary',
  'jobId',
  'namespace',
] as const;
const NUMBER_FIELDS = ['createdAt', 'expiresAt'] as const;
const OPTIONAL_STRINGS = ['runId', 'stateMachineArn', 'region', 'startedBy', 'askedAt'] as const;
const OPTIONAL_NUMBERS = ['timesOutAt'] as const;

type Shape = Readonly<Record<string, 'string' | 'number'>>;
const OPTIONAL_OBJECTS: Readonly<Record<string, Shape>> = {
  batch: { number: 'number', count: 'number', size: 'number' },
  totals: { restarted: 'number', failed: 'number' },
  decision: {
    decisionId: 'string',
    answer: 'string',
    answeredBy: 'string',
    via: 'string',
    decidedAt: 'number',
  },
};
const MESSAGE_SHAPE: Shape = { channel: 'string', ts: 'string', shows: 'string' };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function hasShape(value: unknown, shape: Shape): boolean {
  if (!isRecord(value)) return false;
  return Object.entries(shape).every(([k, t]) =>
    t === 'number' ? typeof value[k] === 'number' && Number.isFinite(value[k]) : typeof value[k] === t,
  );
}

/** Checks an item (the document client has already turned attributes into values). */
export function decodeApproval(item: Record<string, unknown>): Approval {
  for (const f of STRING_FIELDS) {
    if (typeof item[f] !== 'string')
      throw new StoreDecodeError(`Approval item lacks string attribute "${f}"`);
  }
  for (const f of NUMBER_FIELDS) {
    if (typeof item[f] !== 'number' || !Number.isFinite(item[f])) {
      throw new StoreDecodeError(`Approval item lacks number attribute "${f}"`);
    }
  }
  const out: Record<string, unknown> = Object.fromEntries(
    [...STRING_FIELDS, ...NUMBER_FIELDS].map((f) => [f, item[f]]),
  );
  for (const f of OPTIONAL_STRINGS) {
    if (item[f] === undefined) continue;
    if (typeof item[f] !== 'string')
      throw new StoreDecodeError(`Approval item attribute "${f}" is not a string`);
    out[f] = item[f];
  }
  for (const f of OPTIONAL_NUMBERS) {
    if (item[f] === undefined) continue;
    if (typeof item[f] !== 'number' || !Number.isFinite(item[f]))
      throw new StoreDecodeError(`Approval item attribute "${f}" is not a number`);
    out[f] = item[f];
  }
  for (const [f, shape] of Object.entries(OPTIONAL_OBJECTS)) {
    if (item[f] === undefined) continue;
    if (!hasShape(item[f], shape)) throw new StoreDecodeError(`Approval item attribute "${f}" is malformed`);
    out[f] = item[f];
  }
  const messages = item['messages'];
  if (messages !== undefined) {
    if (!isRecord(messages) || !Object.values(messages).every((m) => hasShape(m, MESSAGE_SHAPE))) {
      throw new StoreDecodeError('Approval item attribute "messages" is malformed');
    }
    out['messages'] = messages;
  }
  return out as unknown as Approval;
}
