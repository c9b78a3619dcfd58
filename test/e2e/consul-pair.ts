/**
 * A real Consul agent and the Nomad agent that registers its services in it, for the Consul cases
 * of the end-to-end suite: `NOMAD_E2E_CONSUL_ADDR` (Consul's HTTP address, as `CONSUL_HTTP_ADDR`
 * takes it), `NOMAD_E2E_CONSUL_TOKEN` (a Consul token that may write ACL policies and tokens: the
 * cases make the command's own tokens with it) and `NOMAD_E2E_ADDR` (the Nomad agent). Without all
 * three the cases print why they are not run: the simulator's Consul has its own suite.
 *
 * A watch follows a service's checks through Consul's blocking queries and keeps every answer
 * with the time it came, so a case can say when a check really was passing, independently of the
 * command under test.
 */
import { randomBytes } from 'node:crypto';
import { E2E_ADDR } from './e2e-target';

export const CONSUL_ADDR = process.env['NOMAD_E2E_CONSUL_ADDR'];
const CONSUL_MANAGEMENT = process.env['NOMAD_E2E_CONSUL_TOKEN'];

/** Why the Consul cases cannot run here, or undefined when they can. */
function missing(): string | undefined {
  const unset = [
    ['NOMAD_E2E_CONSUL_ADDR', CONSUL_ADDR],
    ['NOMAD_E2E_CONSUL_TOKEN', CONSUL_MANAGEMENT],
    ['NOMAD_E2E_ADDR', E2E_ADDR],
  ]
    .filter(([, value]) => value === undefined || value === '')
    .map(([name]) => name);
  return unset.length === 0
    ? undefined
    : `needs ${unset.join(', ')} (a real Consul and a Nomad agent registering in it)`;
}

/** `describe` for a group that needs the real pair: without it, prints why instead. */
export function describeConsul(name: string, fn: () => void): void {
  const reason = missing();
  if (reason === undefined) describe(name, fn);
  else console.log(`not run: "${name}" ${reason}`);
}

/** One entry of `GET /v1/health/checks/<service>`, as far as the cases read it. */
export interface ConsulCheck {
  readonly Node: string;
  readonly CheckID: string;
  readonly Name: string;
  readonly Status: string;
  readonly Output: string;
  readonly ServiceID: string;
  readonly ServiceName: string;
  readonly CreateIndex: number;
  readonly ModifyIndex: number;
}

/** A watch's answer: Unix ms it arrived, and the checks in it. */
export interface CheckReading {
  readonly time: number;
  readonly checks: readonly ConsulCheck[];
}

/** A service's checks followed with blocking queries until `stop()`. */
export interface CheckWatch {
  /** Every answer so far, oldest first. */
  readonly readings: readonly CheckReading[];
  stop(): Promise<readonly CheckReading[]>;
}

/** Consul's answer to a call: status, headers, text. */
export interface ConsulAnswer<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: T;
}

/** The suite's view of the real Consul, with the management token; `close()` removes what it made. */
export class ConsulPair {
  /** Consul's base URL (`http://` added when the address has no scheme, as Consul's CLI does). */
  public readonly url: string;
  /** What this test run names its services and ACL objects after, so runs never meet. */
  public readonly run = randomBytes(3).toString('hex');
  private readonly undo: Array<() => Promise<unknown>> = [];

  public constructor() {
    const address = CONSUL_ADDR ?? '';
    this.url = /^https?:\/\//.test(address) ? address : `http://${address}`;
  }

  /** `CONSUL_HTTP_ADDR` as given to the suite. */
  public get address(): string {
    return CONSUL_ADDR ?? '';
  }

  /** Calls Consul with `token` (the management token unless given). */
  public async call<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown; token?: string; signal?: AbortSignal } = {},
  ): Promise<ConsulAnswer<T>> {
    const request: RequestInit = {
      method: init.method ?? 'GET',
      headers: { 'X-Consul-Token': init.token ?? CONSUL_MANAGEMENT ?? '' },
    };
    if (init.body !== undefined) request.body = JSON.stringify(init.body);
    if (init.signal !== undefined) request.signal = init.signal;
    const response = await fetch(`${this.url}${path}`, request);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json: json as T };
  }

  /** A client token holding one new policy of `rules` (Consul's HCL), deleted on close. */
  public async token(rules: string): Promise<string> {
    const name = `nomad-restart-e2e-${this.run}-${this.undo.length}`;
    const policy = await this.must<{ ID: string }>('policy', '/v1/acl/policy', { Name: name, Rules: rules });
    this.undo.push(() => this.call(`/v1/acl/policy/${policy.ID}`, { method: 'DELETE' }));
    const token = await this.must<{ AccessorID: string; SecretID: string }>('token', '/v1/acl/token', {
      Description: name,
      Policies: [{ ID: policy.ID }],
    });
    this.undo.push(() => this.call(`/v1/acl/token/${token.AccessorID}`, { method: 'DELETE' }));
    return token.SecretID;
  }

  /** `GET /v1/health/checks/<service>` with the management token. */
  public async checks(service: string): Promise<ConsulCheck[]> {
    const answer = await this.call<ConsulCheck[]>(`/v1/health/checks/${encodeURIComponent(service)}`);
    if (answer.status !== 200) throw new Error(`Consul answered ${answer.status}: ${answer.text}`);
    return answer.json;
  }

  /** Follows `service`'s checks with blocking queries (`index`, `wait=10s`) until stopped. */
  public watch(service: string): CheckWatch {
    const readings: CheckReading[] = [];
    const abort = new AbortController();
    const path = `/v1/health/checks/${encodeURIComponent(service)}`;
    const loop = (async () => {
      let index = '0';
      while (!abort.signal.aborted) {
        const answer = await this.call<ConsulCheck[]>(`${path}?index=${index}&wait=10s`, {
          signal: abort.signal,
        }).catch(() => undefined);
        if (answer === undefined) continue;
        if (answer.status !== 200) throw new Error(`Consul answered ${answer.status}: ${answer.text}`);
        readings.push({ time: Date.now(), checks: answer.json });
        index = answer.headers.get('X-Consul-Index') ?? index;
      }
    })();
    return {
      readings,
      stop: async () => {
        abort.abort();
        await loop;
        return readings;
      },
    };
  }

  /** Deletes the tokens and policies made. */
  public async close(): Promise<void> {
    for (const undo of this.undo.reverse()) await undo();
  }

  private async must<T>(what: string, path: string, body: unknown): Promise<T> {
    const answer = await this.call<T>(path, { method: 'PUT', body });
    if (answer.status !== 200) throw new Error(`Consul ${what}: ${answer.status} ${answer.text}`);
    return answer.json;
  }
}

/**
 * When all the checks of the service IDs `serviceIds` were last seen passing together, from a
 * watch's readings up to `before` (Unix ms): the time of the first reading of the last unbroken
 * run of such readings that began after `after`, or undefined when there was none.
 */
export function passingSince(
  readings: readonly CheckReading[],
  serviceIds: readonly string[],
  after: number,
  before: number,
): number | undefined {
  let since: number | undefined;
  for (const reading of readings) {
    if (reading.time <= after || reading.time > before) continue;
    const mine = reading.checks.filter((c) => serviceIds.includes(c.ServiceID));
    const passing = mine.length > 0 && mine.every((c) => c.Status === 'passing');
    if (!passing) since = undefined;
    else since ??= reading.time;
  }
  return since;
}

/** The statuses `serviceIds`' checks showed between `after` and `before` (Unix ms), in order, repeats dropped. */
export function statusesSeen(
  readings: readonly CheckReading[],
  serviceIds: readonly string[],
  after: number,
  before: number,
): string[] {
  const seen: string[] = [];
  for (const reading of readings) {
    if (reading.time <= after || reading.time > before) continue;
    const mine = reading.checks.filter((c) => serviceIds.includes(c.ServiceID));
    const status =
      mine.length === 0
        ? 'missing'
        : mine.every((c) => c.Status === 'passing')
          ? 'passing'
          : mine.some((c) => c.Status === 'critical')
            ? 'critical'
            : 'warning';
    if (seen.at(-1) !== status) seen.push(status);
  }
  return seen;
}
