import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Cause, deleteOptionsCauses, podCauses, serviceCauses } from './api-rules.js';
import { forbiddenSysctl, PodSandboxes } from './pod-sysctls.js';
import { type FakeNode, schedule } from './scheduler.js';
import { fieldName, queryOf, selects } from './selectors.js';
import { ServicePortRules } from './service-ports.js';

/**
 * A stand-in for a Kubernetes API server on 127.0.0.1 over HTTPS (its own CA,
 * a bearer token), answering the requests `@kubernetes/client-node` makes for
 * netbench: pods and Services (create, get, delete, list by label selector,
 * across namespaces), pod watches, nodes get, and the exec subresource over
 * WebSocket (`v5.channel.k8s.io`/`v4`). Every request body is checked
 * against the official OpenAPI definitions and the API's validation rules
 * (`api-rules.ts`); a refused body gets the API server's 422 `Status` and is
 * kept in `rejected`. Exec runs the argv for real as a local process, so the
 * tools really run; pods are not containers and every pod shares this
 * machine's network namespace: pod, node and cluster IPs are loopback
 * addresses (127.0.x.y), which all reach the same local sockets.
 */
type Json = Record<string, any>;

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly body?: Json;
}

export interface FakeKubeOptions {
  readonly nodes?: readonly FakeNode[];
  /** Subprotocols the exec endpoint accepts, in order of preference. */
  readonly execProtocols?: readonly string[];
  /** Milliseconds from create to scheduled and from scheduled to running. */
  readonly startDelayMs?: number;
  /** Namespaces that exist (default: default, bench, kube-system). */
  readonly namespaces?: readonly string[];
  /** The kubelet's `--allowed-unsafe-sysctls` (default none): other sysctls outside the safe set get the pod rejected. */
  readonly allowedUnsafeSysctls?: readonly string[];
}

export const TOKEN = 'stand-in-token';
const DEFAULT_NODES: FakeNode[] = [
  {
    name: 'node-a',
    ip: '127.0.10.1',
    labels: {
      'kubernetes.io/hostname': 'node-a',
      'topology.kubernetes.io/zone': 'zone-1',
      'topology.kubernetes.io/region': 'region-1',
      'node.kubernetes.io/instance-type': 'stand-in',
    },
  },
  {
    name: 'node-b',
    ip: '127.0.10.2',
    labels: {
      'kubernetes.io/hostname': 'node-b',
      'topology.kubernetes.io/zone': 'zone-2',
      'topology.kubernetes.io/region': 'region-1',
      'node.kubernetes.io/instance-type': 'stand-in',
    },
  },
];

export class FakeKubeApi {
  readonly requests: Recorded[] = [];
  readonly rejected: { readonly request: Recorded; readonly causes: readonly Cause[] }[] = [];
  /** Requests no route answered: the client asked for something the stand-in (and netbench) should not. */
  readonly unhandled: Recorded[] = [];
  readonly pods = new Map<string, Json>();
  readonly services = new Map<string, Json>();
  readonly nodes: readonly FakeNode[];
  readonly namespaces: ReadonlySet<string>;
  /** Argv of every exec, in order. */
  readonly execs: string[][] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'nb-fake-kube-'));
  private server: Server | undefined;
  private readonly wss: WebSocketServer;
  private readonly watchers = new Set<{ ns?: string; name?: string; res: ServerResponse }>();
  private readonly processes = new Map<string, Set<ChildProcess>>();
  /** Files commands wrote in a pod's /tmp (here: this machine's), removed with the pod as a container's would be. */
  private readonly podFiles = new Map<string, Set<string>>();
  private version = 1;
  private podIps = 0;
  private clusterIps = 0;
  private readonly delay: number;
  /** Network namespaces of pods with net sysctls (`pod-sysctls.ts`). */
  private readonly sandboxes = new PodSandboxes();
  /** kube-proxy's part: only a Service's listed ports reach its pod (root only; `servicePortsEnforced`). */
  private serviceRules: ServicePortRules | undefined;

  constructor(private readonly options: FakeKubeOptions = {}) {
    this.nodes = options.nodes ?? DEFAULT_NODES;
    this.namespaces = new Set(options.namespaces ?? ['default', 'bench', 'kube-system']);
    this.delay = options.startDelayMs ?? 20;
    const accepted = options.execProtocols ?? ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
    this.wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => accepted.find((p) => offered.has(p)) ?? false });
  }

  /** Start listening; returns the path of a kubeconfig (context `stand-in`) that points at it. */
  async start(): Promise<string> {
    this.serviceRules = new ServicePortRules('127.0.30.0/24');
    const key = join(this.dir, 'key.pem');
    const cert = join(this.dir, 'cert.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl could not make the stand-in's certificate: ${made.stderr}`);
    this.server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket as never, head));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const port = (this.server.address() as AddressInfo).port;
    const kubeconfig = join(this.dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: stand-in',
        'clusters:',
        '- name: stand-in',
        '  cluster:',
        `    server: https://127.0.0.1:${port}`,
        `    certificate-authority-data: ${readFileSync(cert).toString('base64')}`,
        'users:',
        '- name: netbench',
        '  user:',
        `    token: ${TOKEN}`,
        'contexts:',
        '- name: stand-in',
        '  context: { cluster: stand-in, user: netbench }',
        '- name: other',
        '  context: { cluster: stand-in, user: netbench }',
        '',
      ].join('\n'),
    );
    return kubeconfig;
  }

  async stop(): Promise<void> {
    for (const set of this.processes.values()) for (const child of set) killGroup(child, 'SIGKILL');
    for (const key of [...this.podFiles.keys()]) this.removePodFiles(key);
    this.sandboxes.removeAll();
    this.serviceRules?.close();
    for (const w of this.watchers) w.res.end();
    this.wss.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Whether a connection to a port a Service does not list fails, as through kube-proxy (needs root: iptables); else why not. */
  get servicePortsEnforced(): true | string {
    return this.serviceRules?.enforced ? true : (this.serviceRules?.why ?? 'not started');
  }

  /** `METHOD path` of every request (watches and exec included). */
  calls(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  // ---- HTTP ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://x');
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? (JSON.parse(text) as Json) : undefined;
    const record: Recorded = { method: req.method ?? 'GET', path: url.pathname, query: queryOf(url), ...(body !== undefined ? { body } : {}) };
    this.requests.push(record);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return this.status(res, 401, 'Unauthorized', 'Unauthorized');
    const parts = url.pathname.split('/').filter(Boolean);
    const q = url.searchParams;
    // /api/v1/namespaces/{ns}/{kind}[/{name}]  or  /api/v1/{kind}  or /api/v1/nodes/{name}
    if (parts[0] !== 'api' || parts[1] !== 'v1') return this.unknown(record, res);
    if (parts[2] === 'nodes' && parts.length === 4 && req.method === 'GET') {
      const node = this.nodes.find((n) => n.name === parts[3]);
      return node ? this.json(res, 200, nodeObject(node)) : this.notFound(res, 'nodes', parts[3]!);
    }
    if ((parts[2] === 'pods' || parts[2] === 'services') && parts.length === 3 && req.method === 'GET') {
      return this.list(res, parts[2], undefined, q);
    }
    if (parts[2] === 'namespaces' && parts.length === 4 && req.method === 'GET') {
      return this.namespaces.has(parts[3]!)
        ? this.json(res, 200, { kind: 'Namespace', apiVersion: 'v1', metadata: { name: parts[3] }, status: { phase: 'Active' } })
        : this.notFound(res, 'namespaces', parts[3]!);
    }
    if (parts[2] !== 'namespaces' || parts.length < 5) return this.unknown(record, res);
    const ns = parts[3]!;
    if (!this.namespaces.has(ns)) return this.notFound(res, 'namespaces', ns);
    const kind = parts[4]!;
    const name = parts[5];
    if (kind !== 'pods' && kind !== 'services') return this.unknown(record, res);
    if (name === undefined && req.method === 'GET') {
      if (q.get('watch') === 'true') return this.watch(req, res, ns, q);
      return this.list(res, kind, ns, q);
    }
    if (name === undefined && req.method === 'POST') return kind === 'pods' ? this.createPod(record, res, ns, body ?? {}) : this.createService(record, res, ns, body ?? {});
    if (name !== undefined && parts.length === 6) {
      const store = kind === 'pods' ? this.pods : this.services;
      const existing = store.get(`${ns}/${name}`);
      if (req.method === 'GET') return existing ? this.json(res, 200, existing) : this.notFound(res, kind, name);
      if (req.method === 'DELETE') {
        const causes = deleteOptionsCauses(body);
        if (causes.length > 0) return this.invalid(record, res, 'DeleteOptions', name, causes);
        if (!existing) return this.notFound(res, kind, name);
        if (kind === 'services') {
          store.delete(`${ns}/${name}`);
          this.serviceRules?.remove(existing['spec'].clusterIP);
          return this.json(res, 200, existing);
        }
        return this.json(res, 200, this.deletePod(ns, name, existing));
      }
    }
    return this.unknown(record, res);
  }

  private createPod(record: Recorded, res: ServerResponse, ns: string, body: Json): void {
    const causes = podCauses(body, ns);
    if (causes.length > 0) return this.invalid(record, res, 'Pod', body['metadata']?.name, causes);
    const key = `${ns}/${body['metadata'].name}`;
    if (this.pods.has(key)) return this.status(res, 409, 'AlreadyExists', `pods "${body['metadata'].name}" already exists`);
    const pod: Json = structuredClone(body);
    pod['metadata'] = { ...pod['metadata'], namespace: ns, uid: randomUUID(), creationTimestamp: new Date().toISOString(), resourceVersion: String(this.version++) };
    pod['status'] = { phase: 'Pending', qosClass: 'BestEffort' };
    this.pods.set(key, pod);
    this.emit('ADDED', pod);
    setTimeout(() => this.scheduleAll(), this.delay);
    this.json(res, 201, pod);
  }

  /** Try every unscheduled pod again (a pod's affinity may wait for another pod to be placed). */
  private scheduleAll(): void {
    for (const pod of this.pods.values()) {
      if (pod['spec'].nodeName || pod['metadata'].deletionTimestamp) continue;
      const others = [...this.pods.values()]
        .filter((p) => p !== pod && !p['metadata'].deletionTimestamp)
        .map((p) => ({ namespace: p['metadata'].namespace, labels: p['metadata'].labels ?? {}, nodeName: p['spec'].nodeName }));
      const { node, reason } = schedule({ namespace: pod['metadata'].namespace, labels: pod['metadata'].labels ?? {}, spec: pod['spec'] }, this.nodes, others);
      if (!node) {
        pod['status'].conditions = [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: reason }];
        this.touch(pod);
        continue;
      }
      pod['spec'].nodeName = node.name;
      pod['status'].conditions = [{ type: 'PodScheduled', status: 'True' }];
      this.touch(pod);
      setTimeout(() => {
        if (pod['metadata'].deletionTimestamp) return;
        const key = `${pod['metadata'].namespace}/${pod['metadata'].name}`;
        const forbidden = forbiddenSysctl(pod, this.options.allowedUnsafeSysctls ?? []);
        if (forbidden) return this.touch(Object.assign(pod, { status: { ...pod['status'], phase: 'Failed', reason: 'SysctlForbidden', message: forbidden } }));
        const sandbox = this.sandboxes.create(key, pod);
        // The kubelet retries a sandbox the runtime cannot make; the pod stays Pending.
        if (sandbox)
          return this.touch(
            Object.assign(pod, {
              status: {
                ...pod['status'],
                containerStatuses: [
                  {
                    name: 'netbench',
                    ready: false,
                    restartCount: 0,
                    image: pod['spec'].containers[0].image,
                    imageID: '',
                    state: { waiting: { reason: 'ContainerCreating', message: sandbox } },
                  },
                ],
              },
            }),
          );
        const ip = pod['spec'].hostNetwork ? node.ip : `127.0.${20 + this.nodes.indexOf(node)}.${++this.podIps}`;
        pod['status'] = {
          ...pod['status'],
          phase: 'Running',
          hostIP: node.ip,
          podIP: ip,
          podIPs: [{ ip }],
          startTime: new Date().toISOString(),
          containerStatuses: [
            { name: 'netbench', ready: true, restartCount: 0, image: pod['spec'].containers[0].image, imageID: '', state: { running: { startedAt: new Date().toISOString() } } },
          ],
        };
        this.touch(pod);
      }, this.delay);
    }
  }

  private deletePod(ns: string, name: string, pod: Json): Json {
    pod['metadata'].deletionTimestamp = new Date().toISOString();
    this.touch(pod);
    for (const child of this.processes.get(`${ns}/${name}`) ?? []) killGroup(child, 'SIGKILL');
    setTimeout(() => {
      this.removePodFiles(`${ns}/${name}`);
      this.sandboxes.remove(`${ns}/${name}`);
      this.pods.delete(`${ns}/${name}`);
      this.emit('DELETED', pod);
      this.scheduleAll();
    }, this.delay);
    return pod;
  }

  private createService(record: Recorded, res: ServerResponse, ns: string, body: Json): void {
    const causes = serviceCauses(body, ns);
    if (causes.length > 0) return this.invalid(record, res, 'Service', body['metadata']?.name, causes);
    const key = `${ns}/${body['metadata'].name}`;
    if (this.services.has(key)) return this.status(res, 409, 'AlreadyExists', `services "${body['metadata'].name}" already exists`);
    const service: Json = structuredClone(body);
    const ip = `127.0.30.${++this.clusterIps}`;
    service['metadata'] = { ...service['metadata'], namespace: ns, uid: randomUUID(), creationTimestamp: new Date().toISOString(), resourceVersion: String(this.version++) };
    service['spec'] = { ...service['spec'], clusterIP: ip, clusterIPs: [ip], ports: service['spec'].ports.map((p: Json) => ({ protocol: 'TCP', ...p })) };
    service['status'] = { loadBalancer: {} };
    this.services.set(key, service);
    this.serviceRules?.add(ip, service['spec'].ports);
    this.json(res, 201, service);
  }

  private list(res: ServerResponse, kind: string, ns: string | undefined, q: URLSearchParams): void {
    const store = kind === 'pods' ? this.pods : this.services;
    const items = [...store.values()].filter((o) => (ns === undefined || o['metadata'].namespace === ns) && selects(q, o));
    this.json(res, 200, { kind: kind === 'pods' ? 'PodList' : 'ServiceList', apiVersion: 'v1', metadata: { resourceVersion: String(this.version) }, items });
  }

  private watch(req: IncomingMessage, res: ServerResponse, ns: string, q: URLSearchParams): void {
    const name = fieldName(q.get('fieldSelector'));
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const watcher = { ns, ...(name !== undefined ? { name } : {}), res };
    this.watchers.add(watcher);
    req.on('close', () => this.watchers.delete(watcher));
    // No resourceVersion: the current state first, as synthetic ADDED events.
    for (const pod of this.pods.values())
      if (pod['metadata'].namespace === ns && (name === undefined || pod['metadata'].name === name)) res.write(`${JSON.stringify({ type: 'ADDED', object: pod })}\n`);
  }

  private touch(pod: Json): void {
    pod['metadata'].resourceVersion = String(this.version++);
    this.emit('MODIFIED', pod);
  }

  private emit(type: string, pod: Json): void {
    for (const w of this.watchers) {
      if (w.ns === pod['metadata'].namespace && (w.name === undefined || w.name === pod['metadata'].name)) w.res.write(`${JSON.stringify({ type, object: pod })}\n`);
    }
  }

  // ---- exec ----

  private upgrade(req: IncomingMessage, socket: import('node:net').Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'https://x');
    const record: Recorded = { method: 'GET', path: url.pathname, query: queryOf(url) };
    this.requests.push(record);
    const refuse = (code: number, reason: string, message: string) => {
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
      socket.end(`HTTP/1.1 ${code} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return refuse(401, 'Unauthorized', 'Unauthorized');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
    if (!m) {
      this.unhandled.push(record);
      return refuse(404, 'NotFound', 'the server could not find the requested resource');
    }
    const [ns, name] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
    const pod = this.pods.get(`${ns}/${name}`);
    if (!pod) return refuse(404, 'NotFound', `pods "${name}" not found`);
    const q = url.searchParams;
    const argv = q.getAll('command');
    const container = q.get('container');
    if (argv.length === 0) return refuse(400, 'BadRequest', 'you must specify at least 1 command');
    if (!pod['spec'].containers.some((c: Json) => c.name === container)) return refuse(400, 'BadRequest', `container ${container} is not valid for pod ${name}`);
    if (pod['status'].phase !== 'Running' || pod['metadata'].deletionTimestamp) return refuse(400, 'BadRequest', `pod ${name} is not running`);
    if (q.get('tty') === 'true') return refuse(400, 'BadRequest', 'the stand-in does not do TTYs (netbench never asks for one)');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.runExec(ws, `${ns}/${name}`, argv, q.get('stdin') === 'true'));
  }

  private removePodFiles(podKey: string): void {
    for (const file of this.podFiles.get(podKey) ?? []) rmSync(file, { force: true });
    this.podFiles.delete(podKey);
  }

  private runExec(ws: WebSocket, podKey: string, argv: string[], stdin: boolean): void {
    this.execs.push(argv);
    // netbench's pid-file wrapper: sh -c SCRIPT PIDFILE ARGV...
    if (argv[0] === 'sh' && argv[1] === '-c' && argv[3]?.startsWith('/tmp/netbench-')) {
      this.podFiles.set(podKey, (this.podFiles.get(podKey) ?? new Set()).add(argv[3]));
    }
    const send = (channel: number, data: Buffer | string) => ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(data)]));
    const finish = (status: Json) => {
      send(3, JSON.stringify({ metadata: {}, ...status }));
      ws.close(1000);
    };
    const run = this.sandboxes.wrap(podKey, argv);
    const child = spawn(run[0]!, run.slice(1), { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    // A command that exits without reading its stdin must not take the server down.
    child.stdin?.on('error', () => undefined);
    const set = this.processes.get(podKey) ?? new Set();
    set.add(child);
    this.processes.set(podKey, set);
    child.stdout!.on('data', (d: Buffer) => send(1, d));
    child.stderr!.on('data', (d: Buffer) => send(2, d));
    child.on('error', (error) => {
      set.delete(child);
      finish({
        status: 'Failure',
        reason: 'InternalError',
        message: `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(argv[0])}: executable file not found in $PATH: unknown (${error.message})`,
      });
    });
    child.on('close', (code, signal) => {
      set.delete(child);
      // The runtime reports a signalled process as 128 + signal number.
      const exit = code ?? 128 + (signal ? (SIGNALS[signal] ?? 9) : 0);
      if (exit === 0) finish({ status: 'Success' });
      else
        finish({
          status: 'Failure',
          reason: 'NonZeroExitCode',
          message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${exit}`,
          details: { causes: [{ reason: 'ExitCode', message: String(exit) }] },
        });
    });
    ws.on('message', (data: Buffer) => {
      const channel = data[0];
      if (channel === 0 && child.stdin) child.stdin.write(data.subarray(1));
      else if (channel === 255 && data[1] === 0) child.stdin?.end();
    });
    ws.on('close', () => child.stdin?.end());
  }

  // ---- responses ----

  private json(res: ServerResponse, code: number, body: unknown): void {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private status(res: ServerResponse, code: number, reason: string, message: string, details?: Json): void {
    this.json(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
  }

  private notFound(res: ServerResponse, kind: string, name: string): void {
    this.status(res, 404, 'NotFound', `${kind} "${name}" not found`, { name, kind });
  }

  private invalid(record: Recorded, res: ServerResponse, kind: string, name: string | undefined, causes: readonly Cause[]): void {
    this.rejected.push({ request: record, causes });
    const message = `${kind} "${name ?? ''}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`;
    this.status(res, 422, 'Invalid', message, { name, kind: kind.toLowerCase(), causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })) });
  }

  private unknown(record: Recorded, res: ServerResponse): void {
    this.unhandled.push(record);
    this.status(res, 404, 'NotFound', 'the server could not find the requested resource');
  }
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* gone */
  }
}

function nodeObject(node: FakeNode): Json {
  return { kind: 'Node', apiVersion: 'v1', metadata: { name: node.name, labels: node.labels }, status: { addresses: [{ type: 'InternalIP', address: node.ip }] } };
}
