import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { armDefinitionVersions, type Violation, validateArmBody } from './arm-definitions.js';

/**
 * A stateful stand-in for Azure Resource Manager on https://127.0.0.1 (the
 * SDKs refuse bearer tokens over plain HTTP), answering with the shapes of the
 * REST reference: resources `{ id, name, type, location, tags, properties }`,
 * PUTs that answer 201 with `Azure-AsyncOperation` and poll InProgress →
 * Succeeded (or Failed with `{ error: { code, message } }`), resource group
 * DELETE that answers 202 with `Location`, the `{ error: { code, message } }`
 * envelope, boot diagnostics SAS URIs and the blob they point to. Security
 * rules PUT on their own are children of their security group (its GET lists
 * them; 404 `ParentResourceNotFound` without it) and are refused as Azure
 * does for a taken priority+direction (`SecurityRuleConflict`), a priority
 * outside 100–4096 and mixed IPv4/IPv6 prefixes. Every request is recorded
 * with the status answered. It models what netbench relies on, not all of ARM.
 *
 * Every PUT body is first checked against the model of its resource type
 * in the installed `@azure/arm-*` SDKs (generated from Microsoft's REST
 * specs; `arm-definitions.ts`): unknown properties, required ones, types,
 * known enum values and the constraints the spec documents (disallowed
 * admin user names, SSH key formats, priority ranges). A body the service
 * would refuse is answered 400 `InvalidParameter` naming the property, and
 * kept in `violations`.
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly authorization?: string;
  /** The status the stand-in answered with. */
  status?: number;
}

type Json = Record<string, any>;
export interface Fault {
  readonly method: string;
  readonly path: RegExp;
  /** Refuse the request with this status and error. */
  readonly http?: { status: number; code: string; message: string };
  /** Accept it, then fail its long-running operation with this error. */
  readonly operationError?: { code: string; message: string };
  times?: number;
}

const NSG = 'Microsoft.Network/networkSecurityGroups';

/** The SDK model of each resource type's PUT body. */
const MODELS: Record<string, string> = {
  'microsoft.resources/resourcegroups': 'ResourceGroup',
  'microsoft.network/publicipaddresses': 'PublicIPAddress',
  'microsoft.network/virtualnetworks': 'VirtualNetwork',
  'microsoft.network/virtualnetworks/virtualnetworkpeerings': 'VirtualNetworkPeering',
  'microsoft.network/applicationsecuritygroups': 'ApplicationSecurityGroup',
  'microsoft.network/networksecuritygroups': 'NetworkSecurityGroup',
  'microsoft.network/networksecuritygroups/securityrules': 'SecurityRule',
  'microsoft.network/networkinterfaces': 'NetworkInterface',
  'microsoft.compute/virtualmachines': 'VirtualMachine',
  'microsoft.compute/proximityplacementgroups': 'ProximityPlacementGroup',
};
const CHILD_RE = /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/(Microsoft\.\w+\/\w+)\/([^/]+)(?:\/(\w+)\/([^/]+))?$/i;

export class FakeArm {
  readonly requests: RecordedRequest[] = [];
  /** Live resources by id (resource groups included). */
  readonly resources = new Map<string, Json>();
  readonly faults: Fault[] = [];
  /** PUT bodies refused because the API definitions forbid them (tests expect none). */
  readonly violations: (Violation & { readonly path: string })[] = [];
  /** PEM of the server's self-signed certificate (for 127.0.0.1), to trust in the clients. */
  readonly ca: string;
  private readonly key: string;
  private readonly operations = new Map<string, { polls: number; error?: { code: string; message: string }; done: () => void }>();
  private server: Server | undefined;
  private readonly tokens = new Set(['Bearer test-token']);
  private base = '';
  private seq = 0;
  publicIp = (_name: string) => '127.0.0.1';
  /** Compute usages per location (`usage.list`): name → [current, limit]. */
  usages: Record<string, [number, number]> = { cores: [0, 100], standardDSv5Family: [0, 100] };
  serialLog = (_vm: string) => '';
  /** Power state of each VM (by name) in its instance view (`$expand=instanceView`): `running` unless set. */
  readonly powerStates = new Map<string, string>();
  /** Resource SKUs (`resourceSkus.list`), in the REST shape: which sizes have accelerated networking. */
  skus: Json[] = ['eastus', 'westeurope', 'eastus2'].flatMap((location) =>
    [
      ['Standard_D2s_v5', true],
      ['Standard_D4s_v5', true],
      ['Standard_F8s_v2', true],
      ['Standard_B1s', false],
      ['Standard_A1_v2', false],
    ].map(([name, accelerated]) => ({
      resourceType: 'virtualMachines',
      name,
      tier: 'Standard',
      size: String(name).replace(/^Standard_/, ''),
      locations: [location],
      capabilities: [
        { name: 'vCPUs', value: '2' },
        { name: 'AcceleratedNetworkingEnabled', value: accelerated ? 'True' : 'False' },
      ],
    })),
  );

  constructor() {
    const dir = mkdtempSync(join(tmpdir(), 'nbt-arm-cert-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      this.ca = readFileSync(join(dir, 'cert.pem'), 'utf8');
      this.key = readFileSync(join(dir, 'key.pem'), 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Accept another bearer token (e.g. a JWT whose claims a test reads). */
  acceptToken(token: string): void {
    this.tokens.add(`Bearer ${token}`);
  }

  async start(): Promise<string> {
    // Read the SDK models now, not inside the first request a test times.
    armDefinitionVersions();
    this.server = createServer({ key: this.key, cert: this.ca }, (req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests other than operation polls, as `METHOD path`. */
  calls(): string[] {
    return this.requests.filter((r) => !r.path.startsWith('/operations/')).map((r) => `${r.method} ${r.path}`);
  }

  private find(id: string): [string, Json] | undefined {
    const key = [...this.resources.keys()].find((k) => k.toLowerCase() === id.toLowerCase());
    return key ? [key, this.resources.get(key)!] : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', this.base);
    const method = req.method ?? 'GET';
    const body = text ? JSON.parse(text) : undefined;
    const auth = req.headers.authorization;
    const record: RecordedRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, ...(auth ? { authorization: auth } : {}) };
    this.requests.push(record);
    const send = (status: number, json?: Json, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ms-request-id': `req-${this.requests.length}`, ...headers });
      res.end(json === undefined ? '' : JSON.stringify(json));
    };
    const fail = (status: number, code: string, message: string) => send(status, { error: { code, message } });

    if (url.pathname.startsWith('/blobs/')) {
      // The SAS URI authorises the download; no bearer token is sent to storage.
      const vm = url.pathname
        .split('/')
        .at(-1)!
        .replace(/\.serialconsole\.log$/, '');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(this.serialLog(vm));
      return;
    }
    if (!this.tokens.has(auth ?? '')) return fail(401, 'AuthenticationFailed', 'Authentication failed. The Authorization header is missing.');
    if (url.pathname.startsWith('/operations/')) return this.poll(url.pathname.split('/').at(-1)!, url.searchParams.has('location'), send);

    const fault = this.faults.find((f) => f.method === method && f.path.test(url.pathname) && (f.times ?? 1) > 0);
    if (fault) fault.times = (fault.times ?? 1) - 1;
    if (fault?.http) return fail(fault.http.status, fault.http.code, fault.http.message);

    if (method === 'PUT') {
      const refused = this.refuseBody(url.pathname, body);
      if (refused) return send(400, { error: refused });
    }

    let m: RegExpExecArray | null;
    if ((m = /^\/subscriptions\/([^/]+)\/resourcegroups(?:\/([^/]+))?$/i.exec(url.pathname))) {
      const [, sub, group] = m;
      const id = `/subscriptions/${sub}/resourceGroups/${group}`;
      if (!group && method === 'GET') {
        const tag = /^tagName eq '([^']+)'$/.exec(url.searchParams.get('$filter') ?? '')?.[1];
        return send(200, { value: [...this.resources.values()].filter((r) => r['type'] === 'Microsoft.Resources/resourceGroups' && (!tag || r['tags']?.[tag] !== undefined)) });
      }
      const existing = this.find(id);
      if (method === 'PUT') {
        const json = {
          id,
          name: group,
          type: 'Microsoft.Resources/resourceGroups',
          location: body.location,
          tags: body.tags ?? {},
          properties: { provisioningState: 'Succeeded' },
        };
        this.resources.set(existing?.[0] ?? id, json);
        return send(existing ? 200 : 201, json);
      }
      if (!existing) return fail(404, 'ResourceGroupNotFound', `Resource group '${group}' could not be found.`);
      if (method === 'GET') return send(200, existing[1]);
      if (method === 'DELETE') {
        const op = this.operation(undefined, () => {
          for (const key of [...this.resources.keys()]) if (key.toLowerCase().startsWith(existing[0].toLowerCase())) this.resources.delete(key);
        });
        return send(202, undefined, { location: `${this.base}/operations/${op}?location=1&api-version=2025-04-01`, 'retry-after': '0' });
      }
    }
    if ((m = /^\/subscriptions\/[^/]+\/providers\/Microsoft\.Compute\/locations\/([^/]+)\/usages$/i.exec(url.pathname)) && method === 'GET') {
      return send(200, {
        value: Object.entries(this.usages).map(([name, [currentValue, limit]]) => ({ unit: 'Count', currentValue, limit, name: { value: name, localizedValue: name } })),
      });
    }
    if (/^\/subscriptions\/[^/]+\/providers\/Microsoft\.Compute\/skus$/i.test(url.pathname) && method === 'GET') {
      const location = /^location eq '([^']+)'$/.exec(url.searchParams.get('$filter') ?? '')?.[1];
      return send(200, { value: this.skus.filter((sku) => !location || (sku['locations'] as string[]).includes(location)) });
    }
    if ((m = CHILD_RE.exec(url.pathname))) return this.child(method, url, m, body, fault, send, fail);
    if ((m = /^(.*\/virtualMachines\/([^/]+))\/retrieveBootDiagnosticsData$/i.exec(url.pathname)) && method === 'POST') {
      if (!this.find(m[1]!)) return fail(404, 'ResourceNotFound', `The Resource '${m[1]}' was not found.`);
      const vm = m[2]!;
      return send(200, {
        consoleScreenshotBlobUri: `${this.base}/blobs/bootdiagnostics-${vm}/${vm}.screenshot.bmp?sv=2025-01-05&sr=b&sp=r&sig=x`,
        serialConsoleLogBlobUri: `${this.base}/blobs/bootdiagnostics-${vm}/${vm}.serialconsole.log?sv=2025-01-05&sr=b&sp=r&sig=x`,
      });
    }
    return fail(404, 'NoRoute', `no route for ${method} ${url.pathname}`);
  }

  /** A PUT body checked against the API definitions: the error ARM would answer, or undefined. */
  private refuseBody(path: string, body: unknown): { code: string; message: string; target?: string } | undefined {
    const type = /^\/subscriptions\/[^/]+\/resourcegroups\/[^/]+$/i.test(path)
      ? 'microsoft.resources/resourcegroups'
      : (() => {
          const m = CHILD_RE.exec(path);
          return m ? (m[5] ? `${m[3]}/${m[5]}` : m[3]!).toLowerCase() : undefined;
        })();
    const model = type ? MODELS[type] : undefined;
    const found = model ? validateArmBody(model, body ?? {}) : [{ field: '(path)', problem: `no API definition is wired for PUT ${path}` }];
    if (found.length === 0) return undefined;
    this.violations.push(...found.map((v) => ({ ...v, path })));
    return {
      code: 'InvalidParameter',
      target: found[0]!.field,
      message: `netbench stand-in, checked against the @azure/arm-* models: ${found.map((v) => `${v.field}: ${v.problem}`).join('; ')}`,
    };
  }

  private child(
    method: string,
    url: URL,
    m: RegExpExecArray,
    body: Json,
    fault: Fault | undefined,
    send: (s: number, j?: Json, h?: Record<string, string>) => void,
    fail: (s: number, c: string, msg: string) => void,
  ): void {
    const [, sub, group, type, name, subType, subName] = m;
    const id = url.pathname;
    if (!this.find(`/subscriptions/${sub}/resourceGroups/${group}`)) return fail(404, 'ResourceGroupNotFound', `Resource group '${group}' could not be found.`);
    const existing = this.find(id);
    const fullType = subType ? `${type}/${subType}` : type!;
    const parentId = subType ? `/subscriptions/${sub}/resourceGroups/${group}/providers/${type}/${name}` : undefined;
    if (parentId && !this.find(parentId)) {
      return fail(
        404,
        'ParentResourceNotFound',
        `Failed to perform '${method === 'GET' ? 'read' : method === 'DELETE' ? 'delete' : 'write'}' on resource(s) of type '${fullType}', because the parent resource '${parentId}' could not be found.`,
      );
    }
    if (method === 'GET') {
      if (!existing) return fail(404, 'ResourceNotFound', `The Resource '${fullType}/${subName ?? name}' under resource group '${group}' was not found.`);
      if (/^Microsoft\.Compute\/virtualMachines$/i.test(type!) && !subType && url.searchParams.get('$expand') === 'instanceView') {
        // The instance view (VirtualMachineInstanceView): provisioning and power state, as InstanceViewStatus codes.
        const power = this.powerStates.get(name!) ?? 'running';
        const statuses = [
          { code: 'ProvisioningState/succeeded', level: 'Info', displayStatus: 'Provisioning succeeded' },
          { code: `PowerState/${power}`, level: 'Info', displayStatus: `VM ${power}` },
        ];
        return send(200, { ...existing[1], properties: { ...existing[1]['properties'], instanceView: { statuses } } });
      }
      return send(200, type === NSG && !subType ? this.withRules(existing[0], existing[1]) : existing[1]);
    }
    if (method === 'DELETE') {
      if (!existing) return send(204);
      const op = this.operation(undefined, () => {
        for (const key of [...this.resources.keys()]) if (key === existing[0] || key.toLowerCase().startsWith(`${existing[0].toLowerCase()}/`)) this.resources.delete(key);
      });
      return send(202, undefined, {
        'azure-asyncoperation': `${this.base}/operations/${op}?api-version=2026-04-01`,
        location: `${this.base}/operations/${op}?location=1`,
        'retry-after': '0',
      });
    }
    if (method !== 'PUT') return fail(405, 'MethodNotAllowed', method);
    if (fullType === `${NSG}/securityRules`) {
      const refused = this.refuseRule(this.withRules(parentId!, this.find(parentId!)![1]), subName!, body);
      if (refused) return fail(400, refused.code, refused.message);
    }
    const resource = this.materialise(id, subName ?? name!, fullType, body);
    // Proximity placement groups are created synchronously.
    if (type === 'Microsoft.Compute/proximityPlacementGroups') {
      this.resources.set(id, resource);
      return send(201, resource);
    }
    this.resources.set(id, { ...resource, properties: { ...resource['properties'], provisioningState: fault?.operationError ? 'Failed' : 'Succeeded' } });
    const op = this.operation(fault?.operationError, () => {});
    // 200 replaces an existing resource, 201 creates one; both carry the operation to poll.
    send(
      existing ? 200 : 201,
      { ...resource, properties: { ...resource['properties'], provisioningState: 'Updating' } },
      {
        'azure-asyncoperation': `${this.base}/operations/${op}?api-version=2026-04-01`,
        'retry-after': '0',
      },
    );
  }

  /**
   * A security group as GET returns it: the rules of its PUT body and the
   * rules PUT on their own, each as a child resource with its id.
   */
  private withRules(nsgId: string, nsg: Json): Json {
    const rules = new Map<string, Json>();
    for (const r of (nsg['properties']?.['securityRules'] ?? []) as Json[]) {
      rules.set(String(r['name']).toLowerCase(), {
        id: `${nsgId}/securityRules/${r['name']}`,
        name: r['name'],
        type: `${NSG}/securityRules`,
        properties: { ...r['properties'], provisioningState: 'Succeeded' },
      });
    }
    const prefix = `${nsgId.toLowerCase()}/securityrules/`;
    for (const [key, r] of this.resources) if (key.toLowerCase().startsWith(prefix)) rules.set(String(r['name']).toLowerCase(), r);
    return { ...nsg, properties: { ...nsg['properties'], securityRules: [...rules.values()] } };
  }

  /** What Azure refuses in a security rule PUT: a priority outside 100–4096 or taken in that direction, mixed address families. */
  private refuseRule(nsg: Json, name: string, body: Json): { code: string; message: string } | undefined {
    const p: Json = body['properties'] ?? {};
    const id = `${nsg['id']}/securityRules/${name}`;
    if (typeof p['priority'] !== 'number' || p['priority'] < 100 || p['priority'] > 4096) {
      return {
        code: 'SecurityRuleInvalidPriority',
        message: `Security rule ${id} has invalid priority ${p['priority']}. Value provided: ${p['priority']}. Allowed values are from 100 to 4096.`,
      };
    }
    const conflict = (nsg['properties']['securityRules'] as Json[]).find(
      (r) => String(r['name']).toLowerCase() !== name.toLowerCase() && r['properties']['priority'] === p['priority'] && r['properties']['direction'] === p['direction'],
    );
    if (conflict)
      return {
        code: 'SecurityRuleConflict',
        message: `Security rule ${name} conflicts with rule ${conflict['name']}. Rules cannot have the same Priority and Direction. To learn more, see aka.ms/nsgrules.`,
      };
    const prefixes = [p['sourceAddressPrefix'], ...(p['sourceAddressPrefixes'] ?? []), p['destinationAddressPrefix'], ...(p['destinationAddressPrefixes'] ?? [])].filter(
      (a): a is string => typeof a === 'string',
    );
    const families = new Set(prefixes.flatMap((a) => (a.includes(':') ? [6] : /^\d/.test(a) ? [4] : [])));
    if (families.size > 1) {
      return {
        code: 'ResourceCannotContainAddressPrefixesFromDifferentAddressFamilies',
        message: `Resource ${id} contains IP addresses or prefixes that belong to different address families. All IP addresses or prefixes in the resource should belong to the same address family.`,
      };
    }
    return undefined;
  }

  /** The resource as ARM returns it, with what the service fills in. */
  private materialise(id: string, name: string, type: string, body: Json): Json {
    this.seq += 1;
    const properties: Json = { ...(body['properties'] ?? {}) };
    if (type === 'Microsoft.Network/publicIPAddresses') properties['ipAddress'] = this.publicIp(name);
    if (type === 'Microsoft.Network/virtualNetworks') {
      properties['subnets'] = (properties['subnets'] ?? []).map((s: Json) => ({
        ...s,
        id: `${id}/subnets/${s['name']}`,
        properties: { ...s['properties'], provisioningState: 'Succeeded' },
      }));
    }
    if (type === 'Microsoft.Network/networkInterfaces') {
      properties['ipConfigurations'] = (properties['ipConfigurations'] ?? []).map((c: Json) => ({
        ...c,
        id: `${id}/ipConfigurations/${c['name']}`,
        properties: { ...c['properties'], privateIPAddress: `10.100.0.${3 + this.seq}`, privateIPAddressVersion: 'IPv4' },
      }));
      properties['macAddress'] = '00-0D-3A-00-00-00';
    }
    if (type === 'Microsoft.Compute/virtualMachines') properties['vmId'] = `00000000-0000-0000-0000-${String(this.seq).padStart(12, '0')}`;
    return {
      id,
      name,
      type,
      ...(body['location'] ? { location: body['location'] } : {}),
      ...(body['tags'] ? { tags: body['tags'] } : {}),
      ...(body['zones'] ? { zones: body['zones'] } : {}),
      ...(body['sku'] ? { sku: body['sku'] } : {}),
      etag: `W/"${this.seq}"`,
      properties,
    };
  }

  private operation(error: { code: string; message: string } | undefined, done: () => void): string {
    this.seq += 1;
    const id = `op-${this.seq}`;
    this.operations.set(id, { polls: 0, ...(error ? { error } : {}), done });
    return id;
  }

  /** `Azure-AsyncOperation` status (InProgress, then Succeeded/Failed), or a `Location` poll (202, then 200). */
  private poll(id: string, location: boolean, send: (s: number, j?: Json, h?: Record<string, string>) => void): void {
    const op = this.operations.get(id);
    if (!op) return send(404, { error: { code: 'NotFound', message: `operation ${id}` } });
    op.polls += 1;
    const finished = op.polls >= 2;
    if (finished && op.polls === 2 && !op.error) op.done();
    if (location) return finished ? send(200) : send(202, undefined, { location: `${this.base}/operations/${id}?location=1`, 'retry-after': '0' });
    if (!finished) return send(200, { id, name: id, status: 'InProgress', startTime: new Date().toISOString() });
    send(
      200,
      op.error
        ? { id, name: id, status: 'Failed', startTime: new Date().toISOString(), endTime: new Date().toISOString(), error: op.error }
        : { id, name: id, status: 'Succeeded', startTime: new Date().toISOString(), endTime: new Date().toISOString() },
    );
  }
}
