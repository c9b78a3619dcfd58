/** Decodes Consul's health answers: `unknown` JSON in, typed checks out, with a message naming the endpoint. */
import { messageOf } from '../../http/error-text';
import { ConsulError } from '../errors';
import type { ConsulCheckStatus, ConsulHealthCheck } from '../types';

const STATUSES: ReadonlySet<string> = new Set(['passing', 'warning', 'critical', 'maintenance']);

function fail(endpoint: string, reason: string): never {
  throw new ConsulError(`Error decoding Consul's answer to ${endpoint}: ${reason}`);
}

function text(endpoint: string, entry: Record<string, unknown>, field: string, at: number): string {
  const value = entry[field] ?? '';
  if (typeof value !== 'string') fail(endpoint, `[${at}].${field} is not a string`);
  return value;
}

function count(endpoint: string, entry: Record<string, unknown>, field: string, at: number): number {
  const value = entry[field] ?? 0;
  if (typeof value !== 'number') fail(endpoint, `[${at}].${field} is not a number`);
  return value;
}

/** The checks of `GET /v1/health/checks/<service>` (a JSON array; `null` reads as none). */
export function decodeChecks(endpoint: string, body: string): ConsulHealthCheck[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    fail(endpoint, `invalid JSON: ${messageOf(err)}`);
  }
  if (value === null) return [];
  if (!Array.isArray(value)) fail(endpoint, 'expected a JSON array');
  return value.map((raw: unknown, at): ConsulHealthCheck => {
    if (typeof raw !== 'object' || raw === null) fail(endpoint, `[${at}] is not an object`);
    const entry = raw as Record<string, unknown>;
    const status = text(endpoint, entry, 'Status', at);
    if (!STATUSES.has(status)) fail(endpoint, `[${at}].Status "${status}" is not a Consul health status`);
    return {
      Node: text(endpoint, entry, 'Node', at),
      CheckID: text(endpoint, entry, 'CheckID', at),
      Name: text(endpoint, entry, 'Name', at),
      Status: status as ConsulCheckStatus,
      Output: text(endpoint, entry, 'Output', at),
      ServiceID: text(endpoint, entry, 'ServiceID', at),
      ServiceName: text(endpoint, entry, 'ServiceName', at),
      Type: text(endpoint, entry, 'Type', at),
      CreateIndex: count(endpoint, entry, 'CreateIndex', at),
      ModifyIndex: count(endpoint, entry, 'ModifyIndex', at),
    };
  });
}
