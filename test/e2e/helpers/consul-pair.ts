/**
 * A real Consul agent and the Nomad agent that registers its services in it, for the Consul cases
 * of the end-to-end suite: `NOMAD_E2E_CONSUL_ADDR` (Consul's HTTP address, as `CONSUL_HTTP_ADDR`
 * takes it), `NOMAD_E2E_CONSUL_TOKEN` (a Consul token that may write ACL policies and tokens: the
 * cases make the command's own tokens with it) and `NOMAD_E2E_ADDR` (the Nomad agent). Without all
 * three the cases print why they are not run: the simulator's Consul has its own suite.
 *
 * A watch follows services' checks through Consul's blocking queries and keeps every answer
 * with the time it came, so a case can say when a check really was passing, independently of the
 * command under test.
 */
import { randomBytes } from 'node:crypto';
import { call } from '../../sim/helpers/http';
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
  public call<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown; token?: string; signal?: AbortSignal } = {},
  ): Promise<ConsulAnswer<T>> {
    return call<T>(this.url, path, {
      ...init,
      token: init.token ?? CONSUL_MANAGEMENT ?? '',
      tokenHeader: 'X-Consul-Token',
    });
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

  /**
   * Follows the checks of `services` with blocking queries (`index`, `wait=10s`, one loop per
   * service) until stopped; each answer makes a reading of every service's latest checks.
   */
  public watch(...services: string[]): CheckWatch {
    const readings: CheckReading[] = [];
    const latest = new Map<string, readonly ConsulCheck[]>();
    const abort = new AbortController();
    const follow = async (service: string) => {
      const path = `/v1/health/checks/${encodeURIComponent(service)}`;
      let index = '0';
      while (!abort.signal.aborted) {
        const answer = await this.call<ConsulCheck[]>(`${path}?index=${index}&wait=10s`, {
          signal: abort.signal,
        }).catch(() => undefined);
        if (answer === undefined) continue;
        if (answer.status !== 200) throw new Error(`Consul answered ${answer.status}: ${answer.text}`);
        latest.set(service, answer.json);
        readings.push({ time: Date.now(), checks: [...latest.values()].flat() });
        index = answer.headers.get('X-Consul-Index') ?? index;
      }
    };
    const loops = Promise.all(services.map(follow));
    // A loop's error surfaces when the case stops the watch, not as an unhandled rejection before.
    loops.catch(() => undefined);
    return {
      readings,
      stop: async () => {
        abort.abort();
        await loops;
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
 * What a reading says of the checks of the service IDs `serviceIds` together: `missing` when one
 * of the services is not there, else `passing` when all pass, `critical` when one is, `warning`.
 */
export function statusOf(reading: CheckReading, serviceIds: readonly string[]): string {
  const mine = reading.checks.filter((c) => serviceIds.includes(c.ServiceID));
  if (!serviceIds.every((id) => mine.some((c) => c.ServiceID === id))) return 'missing';
  if (mine.every((c) => c.Status === 'passing')) return 'passing';
  return mine.some((c) => c.Status === 'critical') ? 'critical' : 'warning';
}

/**
 * When the checks of `serviceIds` were last seen passing together, from a watch's readings
 * between `after` and `before` (Unix ms): the time of the first reading of the last unbroken run of
 * passing readings, or undefined when the last reading in that window was not passing.
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
    if (statusOf(reading, serviceIds) === 'passing') since ??= reading.time;
    else since = undefined;
  }
  return since;
}

/** The statuses (`statusOf`) the readings between `after` and `before` (Unix ms) show, in order, repeats dropped. */
export function statusesSeen(
  readings: readonly CheckReading[],
  serviceIds: readonly string[],
  after: number,
  before: number,
): string[] {
  const seen: string[] = [];
  for (const reading of readings) {
    if (reading.time <= after || reading.time > before) continue;
    const status = statusOf(reading, serviceIds);
    if (seen.at(-1) !== status) seen.push(status);
  }
  return seen;
}
