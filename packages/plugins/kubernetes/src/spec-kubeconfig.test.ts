import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kubeClients } from './kube-client.js';

const saved = { KUBECONFIG: process.env['KUBECONFIG'], NETBENCH_TRUSTED_KUBECONFIGS: process.env['NETBENCH_TRUSTED_KUBECONFIGS'] };
let dir: string;
let server: Server;
let port: number;
// What the fake API server was sent as Authorization headers.
const seen: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nbt-k8s-spec-'));
  server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.writeHead(403, { 'content-type': 'application/json' }).end('{"kind":"Status","message":"no"}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  seen.length = 0;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** A kubeconfig for the fake plain-HTTP server (the library needs insecure-skip-tls-verify for http) whose one user is `user`; JSON is YAML. */
function kubeconfig(name: string, user: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'c',
      clusters: [{ name: 'k', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
    }),
  );
  return file;
}
const execUser = (marker: string) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch', args: [marker], interactiveMode: 'Never' } });

describe('a kubeconfig the spec names', () => {
  it('may not run its exec credential command: refused before any request, the command never runs', async () => {
    const marker = join(dir, 'exec-ran');
    const file = kubeconfig('exec.yaml', execUser(marker));
    delete process.env['KUBECONFIG'];
    delete process.env['NETBENCH_TRUSTED_KUBECONFIGS'];
    let error: unknown;
    try {
      await kubeClients({ kubeconfig: file }).core.listNamespace();
    } catch (e) {
      error = e;
    }
    expect(String(error)).toMatch(new RegExp(`kubeconfig ${file} \\(named by the spec\\) has an exec credential command for user 'u': .*add it to NETBENCH_TRUSTED_KUBECONFIGS`));
    expect(existsSync(marker)).toBe(false);
  });

  it('may not send a token-file of the runner to its server', async () => {
    const secret = join(dir, 'runner-token');
    writeFileSync(secret, 'runner-secret-token-123');
    const file = kubeconfig('token.yaml', { 'token-file': secret });
    delete process.env['KUBECONFIG'];
    await expect(async () => kubeClients({ kubeconfig: file }).core.listNamespace()).rejects.toThrow(/has a token-file for user 'u'/);
    expect(seen.join()).not.toContain('runner-secret-token-123');
    // A token written in the file itself is its author's own: allowed, and sent.
    const inline = kubeconfig('inline.yaml', { token: 'authors-own-token' });
    await expect(kubeClients({ kubeconfig: inline }).core.listNamespace()).rejects.toThrow();
    expect(seen.join()).toContain('Bearer authors-own-token');
  });

  it('runs them when the user vouches for the file: KUBECONFIG or NETBENCH_TRUSTED_KUBECONFIGS', async () => {
    for (const variable of ['KUBECONFIG', 'NETBENCH_TRUSTED_KUBECONFIGS']) {
      const marker = join(dir, `exec-ran-${variable}`);
      const file = kubeconfig(`trusted-${variable}.yaml`, execUser(marker));
      delete process.env['KUBECONFIG'];
      process.env[variable] = `/nonexistent/other:${file}`;
      // touch prints no ExecCredential, so the call fails after the command ran.
      await expect(kubeClients({ kubeconfig: file }).core.listNamespace()).rejects.toThrow();
      expect(existsSync(marker)).toBe(true);
    }
  });
});
