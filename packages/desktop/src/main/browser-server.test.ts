import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../shared/bridge-types.js';
import { type BrowserServer, startBrowserServer } from './browser-server.js';
import { createDesktopApi } from './desktop-api.js';

const repo = join(import.meta.dirname, '../../../..');
const staticDir = mkdtempSync(join(tmpdir(), 'nbt-desktop-static-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
mkdirSync(join(staticDir, 'assets'));
writeFileSync(join(staticDir, 'assets', 'chart-view-P_zV2J0a.js'), 'export const hashed = 1;');
writeFileSync(join(staticDir, 'assets', 'plain.js'), 'export const plain = 1;');
const listeners = new Set<(e: BridgeEvent) => void>();
let server: BrowserServer;
/** The sign-in (the token's one use) and the session it gave: `Cookie` and `Authorization` headers. */
let signIn: Awaited<ReturnType<typeof get>>;
let cookie: { Cookie: string };
let auth: { Authorization: string };

/** Raw HTTP, so the Host header can be set to anything. */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let data = '';
      res.on('data', (c: Buffer) => {
        data += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  const desktop = createDesktopApi({ registry: createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }), version: 'test', shell: 'browser' });
  server = await startBrowserServer({
    api: desktop.api,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    staticDir,
  });
  // Refused before anyone signed in, even with the token as a bearer.
  expect((await get('/', { Authorization: `Bearer ${server.token}` })).status).toBe(401);
  signIn = await get(`/?token=${server.token}`);
  const pair = String(signIn.headers['set-cookie']).split(';')[0]!;
  cookie = { Cookie: pair };
  auth = { Authorization: `Bearer ${pair.slice('netbench_session='.length)}` };
});
afterAll(async () => {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the loopback bridge', () => {
  it('listens on loopback only and refuses any other address', async () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(startBrowserServer({ api: {} as never, subscribe: () => () => {}, host: '0.0.0.0' as never })).rejects.toThrow(/loopback only/);
  });

  it('needs the token: 401 without it, a wrong one, or a wrong cookie', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=wrong')).status).toBe(401);
    expect((await get('/', { Cookie: 'netbench_session=wrong' })).status).toBe(401);
    expect((await get('/api/call', { Authorization: 'Bearer wrong', 'Content-Type': 'application/json' }, 'POST', '{}')).status).toBe(401);
  });

  it('turns the token into an HttpOnly SameSite=Strict cookie and serves the app with a strict CSP', async () => {
    expect(signIn.status).toBe(303);
    expect(signIn.headers.location).toBe('/');
    const setCookie = String(signIn.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const page = await get('/', cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
  });

  it('uses the URL token once; the cookie is a separate session secret the token does not stand for', async () => {
    // The session secret is not the token (which sits in shell history and scrollback).
    expect(cookie.Cookie).not.toContain(server.token);
    const again = await get(`/?token=${server.token}`);
    expect(again.status).toBe(401);
    expect(again.body).toMatch(/already used/);
    expect(again.headers['set-cookie']).toBeUndefined();
    const stales: Record<string, string>[] = [{ Cookie: `netbench_session=${server.token}` }, { Authorization: `Bearer ${server.token}` }];
    for (const stale of stales) {
      expect((await get('/', stale)).status).toBe(401);
      expect((await get('/api/call', { ...stale, 'Content-Type': 'application/json' }, 'POST', '{"method":"appInfo","arg":{}}')).status).toBe(401);
    }
    // The browser that signed in may open the link again: it is sent on, with no new cookie.
    const reopened = await get(`/?token=${server.token}`, cookie);
    expect(reopened.status).toBe(303);
    expect(reopened.headers['set-cookie']).toBeUndefined();
    expect((await get('/', cookie)).status).toBe(200);
    expect((await get('/', auth)).status).toBe(200);
  });

  it('answers a malformed %-escape with 400, not 500', async () => {
    for (const path of ['/%E0%A4%A', '/%zz', '/assets/%', '/%C0%AF..%2f']) {
      const res = await get(path, cookie);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatch(/malformed %-escape/);
    }
    // Signed out, it is still "not signed in" (no detail about paths).
    expect((await get('/%zz')).status).toBe(401);
  });

  it('refuses a foreign Host (DNS rebinding), a foreign Origin, and non-JSON calls', async () => {
    expect((await get('/', { ...auth, Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get('/api/call', { ...auth, 'Content-Type': 'application/json', Origin: 'http://evil.example' }, 'POST', '{"method":"appInfo","arg":{}}')).status).toBe(403);
    expect((await get('/api/call', { ...auth, 'Content-Type': 'text/plain' }, 'POST', '{"method":"appInfo","arg":{}}')).status).toBe(415);
    const ok = await get('/api/call', { ...auth, 'Content-Type': 'application/json', Origin: server.origin }, 'POST', '{"method":"appInfo","arg":{}}');
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { shell: 'browser', version: 'test' } });
  });

  it('lets the browser keep content-hashed assets, never the page, the API or other files', async () => {
    const hashed = await get('/assets/chart-view-P_zV2J0a.js', auth);
    expect(hashed.body).toBe('export const hashed = 1;');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await get('/assets/plain.js', auth)).headers['cache-control']).toBe('no-store');
    expect((await get('/', auth)).headers['cache-control']).toBe('no-store');
    // A hashed name that is not there gets the app, which must not be kept under that name.
    const missing = await get('/assets/gone-AAAAAAAA.js', auth);
    expect(missing.body).toContain('<title>app</title>');
    expect(missing.headers['cache-control']).toBe('no-store');
    const call = await get('/api/call', { ...auth, 'Content-Type': 'application/json' }, 'POST', '{"method":"appInfo","arg":{}}');
    expect(call.headers['cache-control']).toBe('no-store');
  });

  it('does not serve files outside the renderer folder', async () => {
    const res = await get('/..%2f..%2f..%2fetc%2fpasswd', auth);
    expect(res.body).not.toContain('root:');
  });

  it('streams bridge events to signed-in clients', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { Host: `127.0.0.1:${server.port}`, ...auth } }, (res) => {
        let data = '';
        res.on('data', (c: Buffer) => {
          data += c.toString();
          if (data.includes('data: ')) {
            resolve(data);
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((r) => setTimeout(r, 100));
    for (const l of listeners) l({ kind: 'run-ended', runId: 'r1', ended: { status: 'succeeded', exitCode: 0, errors: [], failedTrials: [], teardown: [], samples: 3 } });
    expect(await received).toContain('"runId":"r1"');
  });
});
