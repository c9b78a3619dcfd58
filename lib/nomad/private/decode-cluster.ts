/**
 * Checks Nomad's namespace and node pool answers against the fields the fleet's plan reads.
 */
import type { Namespace, NodePool } from '../types';
import {
  type DecodeContext,
  type JsonObject,
  listOf,
  oneOf,
  optNumbers,
  optStrings,
  reqString,
} from './decode';

function checkNamed(ctx: DecodeContext, o: JsonObject, at: string): void {
  reqString(ctx, o, 'Name', at);
  optStrings(ctx, o, at, 'Description');
  optNumbers(ctx, o, at, 'CreateIndex', 'ModifyIndex');
}

/** `GET /v1/namespaces`. */
export function decodeNamespaces(ctx: DecodeContext, value: unknown): Namespace[] {
  return listOf<Namespace>(ctx, value, checkNamed);
}

/** `GET /v1/node/pool/:name`. */
export function decodeNodePool(ctx: DecodeContext, value: unknown): NodePool {
  return oneOf<NodePool>(ctx, value, checkNamed);
}
