import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverySource, type Violation, validateGceRequest } from './discovery.js';

/**
 * A stateful stand-in for the Compute Engine REST API (v1) on 127.0.0.1,
 * answering the SDK's requests with the response shapes of the API
 * reference (Operation, Instance, SerialPortOutput, aggregated lists, the
 * `{ error: { code, message, errors[] } }` envelope). Every request is
 * recorded. Operations go PENDING → RUNNING → DONE over two `wait` calls.
 * It models what netbench relies on, not the whole API.
 *
 * Every authenticated request is first checked against the Compute v1
 * discovery document (`discovery.ts`: method and path parameters, query
 * parameters, body property names, required fields, enums, name patterns,
 * URL fields); one the API would refuse is answered 400 `invalid` naming
 * the field, and kept in `violations`.
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly authorization?: string;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

type Json = Record<string, any>;
/** A canned failure: HTTP error for a matching request, or a failed operation. */
export interface Fault {
  readonly method: string;
  readonly path: RegExp;
  /** Respond with this HTTP error instead of handling the request. */
  readonly http?: { status: number; message: string; reason: string };
  /** Accept the request, then end its operation DONE with these errors. */
  readonly operationErrors?: { code: string; message: string }[];
  /** Fire this many times (default 1). */
  times?: number;
}

const BASE = 'https://www.googleapis.com/compute/v1/';
const COLLECTIONS = [
  'networks',
  'subnetworks',
  'firewalls',
  'resourcePolicies',
  'instances',
  'addresses',
  'targetVpnGateways',
  'forwardingRules',
  'vpnTunnels',
  'routes',
  'vpnGateways',
  'routers',
] as const;
/** `kind` of each collection's items (`compute#address`, not a naive singular). */
const KINDS: Record<string, string> = {
  addresses: 'address',
  targetVpnGateways: 'targetVpnGateway',
  forwardingRules: 'forwardingRule',
  vpnTunnels: 'vpnTunnel',
  routes: 'route',
  resourcePolicies: 'resourcePolicy',
  vpnGateways: 'vpnGateway',
  routers: 'router',
};

export class FakeGce {
  readonly requests: RecordedRequest[] = [];
  /** Live resources by relative name (`projects/p/zones/z/instances/n`). */
  readonly resources = new Map<string, Json>();
  readonly faults: Fault[] = [];
  /** Requests refused because the discovery document forbids them (tests expect none). */
  readonly violations: (Violation & { readonly method: string; readonly path: string })[] = [];
  private readonly operations = new Map<string, { op: Json; waits: number; errors?: Fault['operationErrors']; apply?: () => void }>();
  private server: Server | undefined;
  private seq = 0;
  private addresses = 0;
  private externalAddresses = 0;
  /** Shared secret each VPN tunnel was created with (the API keeps it; tests compare the two sides). */
  readonly sharedSecrets = new Map<string, string>();
  /** The external address each instance gets (netbench connects there: keep it loopback). */
  natIp = (_name: string) => '127.0.0.1';
  /** Serial port 1 output of each instance. */
  serialOutput = (_name: string) => '';
  /** Regional quotas (`regions.get`): metric → [limit, usage]. */
  quotas: Record<string, [number, number]> = { CPUS: [24, 0], N2_CPUS: [24, 0], C2_CPUS: [0, 0], IN_USE_ADDRESSES: [8, 0] };
  /** Pieces of serial output returned per read (to exercise `start`/`next`). */
  serialChunk = 1 << 20;

  async start(): Promise<string> {
    // Read the discovery document now (it spawns Python once): not inside the first request a test times.
    discoverySource();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests other than operation waits, as `METHOD path`. */
  calls(): string[] {
    return this.requests.filter((r) => !r.path.endsWith('/wait')).map((r) => `${r.method} ${r.path}`);
  }

  ofType(collection: string): string[] {
    return [...this.resources.keys()].filter((k) => k.split('/').at(-2) === collection);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    const body = text ? JSON.parse(text) : undefined;
    const auth = req.headers.authorization;
    this.requests.push({
      at: Date.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      ...(auth ? { authorization: auth } : {}),
    });
    const send = (status: number, json: Json) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(json));
    };
    const error = (status: number, message: string, reason: string) => send(status, { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } });
    if (auth !== 'Bearer test-token') return error(401, 'Request is missing required authentication credential.', 'required');
    const method = req.method ?? 'GET';
    const found = validateGceRequest(method, url.pathname.replace(/^\/compute\/v1\//, ''), Object.fromEntries(url.searchParams), body);
    if (found.length > 0) {
      this.violations.push(...found.map((v) => ({ ...v, method, path: url.pathname })));
      return error(400, `Invalid value (netbench stand-in, checked against ${discoverySource()}): ${found.map((v) => `${v.field}: ${v.problem}`).join('; ')}`, 'invalid');
    }
    const fault = this.faults.find((f) => f.method === req.method && f.path.test(url.pathname) && (f.times ?? 1) > 0);
    if (fault) fault.times = (fault.times ?? 1) - 1;
    if (fault?.http) return error(fault.http.status, fault.http.message, fault.http.reason);
    try {
      const result = this.route(req.method ?? 'GET', url, body, fault?.operationErrors);
      if (!result) return error(404, `The resource '${url.pathname}' was not found`, 'notFound');
      send(200, result);
    } catch (e) {
      const { status, message, reason } = e as { status: number; message: string; reason: string };
      error(status ?? 500, message, reason ?? 'backendError');
    }
  }

  private route(method: string, url: URL, body: Json | undefined, opErrors: Fault['operationErrors']): Json | undefined {
    const path = url.pathname.replace(/^\/compute\/v1\//, '');
    let m: RegExpExecArray | null;
    if (method === 'POST' && (m = /^(projects\/[^/]+\/(?:global|zones\/[^/]+|regions\/[^/]+))\/operations\/([^/]+)\/wait$/.exec(path))) return this.waitOp(m[2]!);
    if (method === 'GET' && (m = /^projects\/([^/]+)\/aggregated\/(\w+)$/.exec(path))) return this.aggregated(m[1]!, m[2]!);
    if (method === 'GET' && (m = /^projects\/([^/]+)\/regions\/([^/]+)$/.exec(path))) return this.region(m[1]!, m[2]!);
    if (method === 'GET' && (m = /^projects\/([^/]+)\/regions$/.exec(path))) {
      return {
        kind: 'compute#regionList',
        id: `projects/${m[1]}/regions`,
        items: [this.region(m[1]!, 'us-central1')],
        nextPageToken: 'page2',
        selfLink: `${BASE}projects/${m[1]}/regions`,
      };
    }
    if (method === 'GET' && (m = /^(projects\/[^/]+\/zones\/[^/]+\/instances\/[^/]+)\/serialPort$/.exec(path))) return this.serial(m[1]!, url);
    if ((m = /^(projects\/([^/]+)\/(?:global|zones\/([^/]+)|regions\/([^/]+)))\/(\w+)(?:\/([^/]+))?$/.exec(path))) {
      const [, scope, , zone, region, collection, name] = m;
      if (!(COLLECTIONS as readonly string[]).includes(collection!)) return undefined;
      const id = `${scope}/${collection}${name ? `/${name}` : ''}`;
      if (method === 'POST' && !name) return this.insert(scope!, collection!, body ?? {}, zone, region, opErrors);
      if (method === 'DELETE' && name) return this.remove(id, zone, region, opErrors);
      // routers.patch merges the given fields (lists replace); routers.update (PUT) replaces the resource.
      if ((method === 'PATCH' || method === 'PUT') && name) return this.change(method, id, body ?? {}, zone, region, opErrors);
      if (method === 'GET' && name) return this.resources.get(id);
      if (method === 'GET')
        return {
          kind: `compute#${collection}List`,
          id,
          items: [...this.resources.entries()].filter(([k]) => k.startsWith(`${scope}/${collection}/`)).map(([, v]) => v),
          selfLink: BASE + id,
        };
    }
    return undefined;
  }

  private operation(type: string, target: string, zone?: string, region?: string, errors?: Fault['operationErrors'], apply?: () => void): Json {
    this.seq += 1;
    const name = `operation-${Date.now()}-${this.seq.toString(16).padStart(13, '0')}`;
    const project = target.split('/')[1];
    const scope = zone ? `zones/${zone}` : region ? `regions/${region}` : 'global';
    const op: Json = {
      kind: 'compute#operation',
      id: String(1_000_000 + this.seq),
      name,
      operationType: type,
      targetLink: BASE + target,
      targetId: String(2_000_000 + this.seq),
      status: 'PENDING',
      user: 'netbench@example.iam.gserviceaccount.com',
      progress: 0,
      insertTime: new Date().toISOString(),
      selfLink: `${BASE}projects/${project}/${scope}/operations/${name}`,
      ...(zone ? { zone: `${BASE}projects/${project}/zones/${zone}` } : {}),
      ...(region ? { region: `${BASE}projects/${project}/regions/${region}` } : {}),
    };
    this.operations.set(name, { op, waits: 0, ...(errors ? { errors } : {}), ...(apply ? { apply } : {}) });
    return { ...op };
  }

  private waitOp(name: string): Json | undefined {
    const entry = this.operations.get(name);
    if (!entry) return undefined;
    entry.waits += 1;
    if (entry.waits === 1) Object.assign(entry.op, { status: 'RUNNING', progress: 50, startTime: new Date().toISOString() });
    else if (entry.op['status'] !== 'DONE') {
      Object.assign(entry.op, { status: 'DONE', progress: 100, endTime: new Date().toISOString() });
      if (entry.errors) Object.assign(entry.op, { error: { errors: entry.errors.map((e) => ({ ...e })) }, httpErrorStatusCode: 503, httpErrorMessage: 'SERVICE UNAVAILABLE' });
      else entry.apply?.();
    }
    return { ...entry.op };
  }

  private insert(scope: string, collection: string, body: Json, zone?: string, region?: string, errors?: Fault['operationErrors']): Json {
    const name = String(body['name']);
    const id = `${scope}/${collection}/${name}`;
    if (this.resources.has(id)) throw { status: 409, message: `The resource '${id}' already exists`, reason: 'alreadyExists' };
    const resource: Json = {
      kind: `compute#${KINDS[collection] ?? collection.replace(/s$/, '')}`,
      id: String(3_000_000 + this.seq),
      creationTimestamp: new Date().toISOString(),
      ...body,
      selfLink: BASE + id,
    };
    if (collection === 'addresses') {
      // A reserved external address: TEST-NET-3, never routed.
      this.externalAddresses += 1;
      Object.assign(resource, { address: `203.0.113.${this.externalAddresses}`, status: 'RESERVED', region: `${BASE}${scope}` });
    }
    if (collection === 'vpnTunnels') {
      // The API never returns the shared secret; only its hash.
      delete resource['sharedSecret'];
      Object.assign(resource, { sharedSecretHash: 'hash', status: 'ESTABLISHED', detailedStatus: 'Tunnel is up and running.', region: `${BASE}${scope}` });
      this.sharedSecrets.set(id, String(body['sharedSecret'] ?? ''));
    }
    if (collection === 'vpnGateways') {
      // The API gives every HA VPN gateway two interfaces, each with its own external address (TEST-NET-3).
      const ips = [0, 1].map(() => {
        this.externalAddresses += 1;
        return `203.0.113.${this.externalAddresses}`;
      });
      Object.assign(resource, { vpnInterfaces: ips.map((ipAddress, i) => ({ id: i, ipAddress })), stackType: 'IPV4_ONLY', region: `${BASE}${scope}` });
    }
    if (collection === 'routers') Object.assign(resource, { region: `${BASE}${scope}` });
    if (collection === 'instances') {
      this.addresses += 1;
      const n = this.addresses + 1;
      const nic = (body['networkInterfaces'] as Json[])[0]!;
      resource['status'] = 'RUNNING';
      resource['zone'] = `${BASE}${scope}`;
      resource['networkInterfaces'] = [
        {
          kind: 'compute#networkInterface',
          name: 'nic0',
          network: BASE + nic['network'],
          ...(nic['subnetwork'] ? { subnetwork: BASE + nic['subnetwork'] } : {}),
          networkIP: `10.128.0.${n}`,
          accessConfigs: (nic['accessConfigs'] ?? []).map((a: Json) => ({ kind: 'compute#accessConfig', ...a, natIP: this.natIp(name) })),
          fingerprint: 'abc=',
          stackType: 'IPV4_ONLY',
        },
      ];
    }
    return this.operation('insert', id, zone, region, errors, () => this.resources.set(id, resource));
  }

  private change(method: string, id: string, body: Json, zone?: string, region?: string, errors?: Fault['operationErrors']): Json | undefined {
    const current = this.resources.get(id);
    if (!current) return undefined;
    const kept = { kind: current['kind'], id: current['id'], creationTimestamp: current['creationTimestamp'], selfLink: current['selfLink'], region: current['region'] };
    const next: Json = method === 'PATCH' ? { ...current, ...body } : { ...body, ...kept };
    return this.operation(method === 'PATCH' ? 'patch' : 'update', id, zone, region, errors, () => this.resources.set(id, next));
  }

  private remove(id: string, zone?: string, region?: string, errors?: Fault['operationErrors']): Json | undefined {
    if (!this.resources.has(id)) return undefined;
    const user = this.userOf(id);
    if (user)
      throw {
        status: 400,
        message: `The ${id.split('/').at(-2)!.replace(/s$/, '')} resource '${id}' is already being used by '${user}'`,
        reason: 'resourceInUseByAnotherResource',
      };
    return this.operation('delete', id, zone, region, errors, () => this.resources.delete(id));
  }

  /** What still refers to `id` (an instance to its subnet, a subnet or rule to its network). */
  private userOf(id: string): string | undefined {
    for (const [key, value] of this.resources) {
      if (key === id) continue;
      const text = JSON.stringify(value);
      if (text.includes(`"${BASE}${id}"`) || text.includes(`"${id}"`)) return key;
    }
    return undefined;
  }

  private aggregated(project: string, collection: string): Json {
    const items: Json = {};
    for (const [key, value] of this.resources) {
      const m = new RegExp(`^projects/${project}/((?:zones|regions)/[^/]+)/${collection}/`).exec(key);
      if (!m) continue;
      ((items[m[1]!] ??= {})[collection] ??= []).push(value);
    }
    return {
      kind: `compute#${collection}AggregatedList`,
      id: `projects/${project}/aggregated/${collection}`,
      items,
      selfLink: `${BASE}projects/${project}/aggregated/${collection}`,
    };
  }

  private region(project: string, region: string): Json {
    return {
      kind: 'compute#region',
      id: '1000',
      name: region,
      status: 'UP',
      selfLink: `${BASE}projects/${project}/regions/${region}`,
      zones: ['a', 'b', 'c'].map((z) => `${BASE}projects/${project}/zones/${region}-${z}`),
      quotas: Object.entries(this.quotas).map(([metric, [limit, usage]]) => ({ metric, limit, usage })),
    };
  }

  private serial(id: string, url: URL): Json | undefined {
    if (!this.resources.has(id)) return undefined;
    const all = this.serialOutput(id.split('/').at(-1)!);
    const start = Number(url.searchParams.get('start') ?? 0);
    const contents = all.slice(start, start + this.serialChunk);
    return { kind: 'compute#serialPortOutput', contents, start: String(start), next: String(start + contents.length), selfLink: `${BASE}${id}/serialPort` };
  }
}
