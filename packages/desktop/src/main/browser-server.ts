import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';
import type { BridgeApi, BridgeEvent } from '../shared/bridge-types.js';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.js';
import { dispatchCall } from './dispatch-call.js';
import { rendererDir } from './renderer-dir.js';

export interface BrowserServerOptions {
  readonly api: BridgeApi;
  /** Where bridge events come from (RunControl.subscribe). */
  readonly subscribe: (listener: (event: BridgeEvent) => void) => () => void;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Loopback only: 127.0.0.1 (default) or ::1. */
  readonly host?: '127.0.0.1' | '::1';
  /** The built renderer; default packages/desktop/dist/renderer. */
  readonly staticDir?: string;
  /** Fixed sign-in token (tests); default 32 random bytes. */
  readonly token?: string;
}

export interface BrowserServer {
  /** Open this once: it carries the single-use sign-in token, exchanged for a session cookie. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  /** The sign-in token in `url`: good for one sign-in only. */
  readonly token: string;
  close(): Promise<void>;
}

const COOKIE = 'netbench_session';
/** `assets/chart-view-P_zV2J0a.js`: a name Vite gave from the content's hash. */
const HASHED_ASSET_RE = /-[A-Za-z0-9_-]{8}\.(js|css)$/;
const MAX_BODY = 2 * 1024 * 1024;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * `netbench ui --browser`: the renderer and the bridge over HTTP on
 * loopback. The same calls as Electron's IPC (POST /api/call) and the same
 * events (server-sent events on /api/events). Authentication: a random
 * sign-in token in the first URL, good once, exchanged for a separate random
 * session secret in an HttpOnly SameSite=Strict cookie (scripts may send the
 * session secret as `Authorization: Bearer`), so the printed URL — in shell
 * history, a terminal's scrollback — does not sign anyone in again; the Host header must name the
 * loopback address (no DNS rebinding), and calls must be JSON (no
 * cross-site form posts).
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== '::1') throw new NetbenchError(`the browser bridge listens on loopback only, not ${String(host)}`);
  const token = options.token ?? randomBytes(32).toString('base64url');
  // The cookie's value: never printed, never in a URL, unrelated to the sign-in token.
  const session = randomBytes(32).toString('base64url');
  let signedIn = false;
  const staticDir = options.staticDir ?? rendererDir();
  const streams = new Set<ServerResponse>();
  const unsubscribe = options.subscribe((event) => {
    const data = `data: ${JSON.stringify(event)}\n\n`;
    for (const res of streams) res.write(data);
  });
  let allowedHosts: Set<string> = new Set();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts.has(req.headers.host ?? '')) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header');
    const url = new URL(req.url ?? '/', 'http://loopback');
    const offered = url.searchParams.get('token');
    if (offered !== null) {
      // The link opened again in the browser that already signed in: just go on.
      if (authorised(req)) return redirect(res, url.pathname);
      if (!same(offered, token)) return send(res, 401, 'text/plain; charset=utf-8', 'wrong token: open the URL `netbench ui --browser` printed');
      if (signedIn) return send(res, 401, 'text/plain; charset=utf-8', 'this sign-in link was already used: restart `netbench ui --browser` for a new one');
      signedIn = true;
      return redirect(res, url.pathname, `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`);
    }
    if (!authorised(req)) {
      return send(res, 401, 'text/plain; charset=utf-8', 'not signed in: open the URL `netbench ui --browser` printed (its token signs in once)');
    }
    if (url.pathname === '/api/call') return call(req, res);
    if (url.pathname === '/api/events') return events(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
    return serveStatic(url.pathname, res);
  }

  function authorised(req: IncomingMessage): boolean {
    if (!signedIn) return false;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer !== undefined) return same(bearer, session);
    const cookie = (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${COOKIE}=`));
    return cookie !== undefined && same(cookie.slice(COOKIE.length + 1), session);
  }

  function redirect(res: ServerResponse, location: string, cookie?: string): void {
    res.writeHead(303, { ...(cookie !== undefined ? { 'Set-Cookie': cookie } : {}), Location: location, 'Cache-Control': 'no-store' });
    res.end();
  }

  async function call(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'POST only');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, 'text/plain; charset=utf-8', 'JSON only');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, ''))) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden origin');
    let body: { method?: unknown; arg?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { method?: unknown; arg?: unknown };
    } catch (error) {
      return send(res, 400, 'text/plain; charset=utf-8', `bad request: ${error instanceof Error ? error.message : String(error)}`);
    }
    const envelope = await dispatchCall(options.api, body.method, body.arg);
    send(res, 200, 'application/json', JSON.stringify(envelope));
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  async function serveStatic(pathname: string, res: ServerResponse): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'bad request: malformed %-escape in the path');
    }
    const relative = normalize(decoded).replace(/^([/\\])+/, '');
    let file = join(staticDir, relative === '' ? 'index.html' : relative);
    if (!file.startsWith(staticDir + sep) && file !== staticDir) return send(res, 403, 'text/plain; charset=utf-8', 'forbidden');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      // Client-side routes (#/…) never reach here; any other unknown path gets the app, which shows its own 404.
      file = join(staticDir, 'index.html');
      try {
        body = await readFile(file);
      } catch {
        return send(res, 500, 'text/plain; charset=utf-8', `the renderer is not built (${staticDir}): run \`npm run build\``);
      }
    }
    // Vite names every file under assets/ by its content's hash: the browser may keep it (and V8 its
    // compiled code) for good. index.html and the API are never cached.
    const immutable = file !== join(staticDir, 'index.html') && relative.startsWith(`assets${sep}`) && HASHED_ASSET_RE.test(relative);
    send(res, 200, TYPES[extname(file)] ?? 'application/octet-stream', body, immutable ? 'public, max-age=31536000, immutable' : 'no-store');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostPart = host === '::1' ? '[::1]' : host;
  allowedHosts = new Set([`${hostPart}:${port}`, `localhost:${port}`]);
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': ping\n\n');
  }, 15_000);
  heartbeat.unref();

  return {
    url: `http://${hostPart}:${port}/?token=${token}`,
    origin: `http://${hostPart}:${port}`,
    port,
    token,
    close: async () => {
      clearInterval(heartbeat);
      unsubscribe();
      for (const res of streams) res.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, cache = 'no-store'): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': cache,
  });
  res.end(body);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body over 2 MB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
