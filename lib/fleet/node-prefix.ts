/**
 * `-node <id or prefix>` as Nomad's own CLI reads a node identifier (`command/node_status.go`
 * `NodeStatusCommand.Run`): at least two characters, an odd-length prefix trimmed to the even
 * length Nomad can query (`command/helpers.go` `sanitizeUUIDPrefix`), then exactly one node must
 * match, with Nomad's messages when none or several do.
 */
import { goQuote } from '../go/quote';
import { columnize } from '../restart/prefix-matches';

/** Nomad's short ID length (`command/commands.go` `shortId`). */
const SHORT_ID_LENGTH = 8;

/** The node stub fields Nomad's table of matches shows (`NodeListStub`). */
export interface NodeStub {
  readonly ID: string;
  readonly Datacenter?: string;
  readonly Name?: string;
  readonly NodeClass?: string;
  readonly Drain?: boolean;
  readonly SchedulingEligibility?: string;
  readonly Status?: string;
}

/**
 * A node identifier too short to query: Nomad's `Identifier must contain at least two characters.`
 * @returns the message, or `undefined` when the identifier is long enough
 */
export function tooShortNodeId(id: string): string | undefined {
  return id.length === 1 ? 'Identifier must contain at least two characters.' : undefined;
}

/**
 * The prefix Nomad queries for `prefix`: hyphens do not count, and an odd number of the other
 * characters loses its last one (Nomad's `command/helpers.go` `sanitizeUUIDPrefix`).
 */
export function sanitizeNodePrefix(prefix: string): string {
  const hyphens = prefix.split('-').length - 1;
  return prefix.slice(0, prefix.length - ((prefix.length - hyphens) % 2));
}

/** Nomad's message for a prefix no node has: `No node(s) with prefix "<p>" found`. */
export function noNodeMatched(prefix: string): string {
  return `No node(s) with prefix ${goQuote(prefix)} found`;
}

/**
 * Nomad's message for a prefix several nodes share: `Prefix matched multiple nodes`, a blank line,
 * and its table of the matches (`command/node_status.go` `formatNodeStubList`, short IDs).
 */
export function severalNodesMatched(nodes: readonly NodeStub[]): string {
  const rows = nodes.map((n) =>
    [
      n.ID.slice(0, SHORT_ID_LENGTH),
      n.Datacenter ?? '',
      n.Name ?? '',
      n.NodeClass ?? '',
      String(n.Drain ?? false),
      n.SchedulingEligibility ?? '',
      n.Status ?? '',
    ].join('|'),
  );
  return `Prefix matched multiple nodes\n\n${columnize(['ID|DC|Name|Class|Drain|Eligibility|Status', ...rows])}`;
}
