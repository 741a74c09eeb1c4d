// Run by unprivileged.test.ts as a real unprivileged process (setpriv to nobody):
// it loads the plugin from source (Node strips the types), provisions, measures
// a little over loopback, tears down from the ledger and prints what it saw as JSON.

import { mkdtempSync, rmSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Sources import './x.js'; on disk they are './x.ts'.
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) return next(`${specifier.slice(0, -3)}.ts`, context);
      throw error;
    }
  },
});

const { default: plugin, localCapabilities } = await import('../index.ts');

const runId = process.argv[2];
const port = process.argv[3];
const runDir = mkdtempSync(join(tmpdir(), `nbt-local-${runId}-`));
const entries = [];
const ledger = {
  entries,
  async track(resource, create) {
    entries.push({ phase: 'intent', resource });
    const result = await create();
    entries.push({ phase: 'created', resource });
    return result;
  },
  async created(resource) {
    entries.push({ phase: 'created', resource });
  },
};
const warnings = [];
const ctx = { runId, runDir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn: (m) => warnings.push(m) }, ledger };
const req = (id, config = {}) => ({ id, name: id, cloud: 'local', config });
const out = { uid: process.getuid(), warnings };

try {
  out.caps = await localCapabilities();
  try {
    await plugin.preflight([req('shaped', { link: { rate: '100mbit' } })], ctx);
    out.shapedPreflight = 'accepted';
  } catch (error) {
    out.shapedPreflight = `${error.name}: ${error.message}`;
  }
  await plugin.preflight([req('client'), req('server')], ctx);
  const [client, server] = await plugin.provision([req('client'), req('server', { address: '10.213.0.9' })], ctx);
  out.hosts = [client, server].map((h) => ({ id: h.id, internalIp: h.internalIp, labels: h.labels }));
  out.idInHost = (await client.exec(['id', '-u'])).stdout.trim();

  const iperf = server.spawn(['iperf3', '-s', '-1', '-B', server.internalIp, '-p', port]);
  let result;
  for (let i = 0; i < 50; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    result = await client.exec(['iperf3', '-c', server.internalIp, '-p', port, '-t', '1', '-J'], { timeoutMs: 15_000 });
    if (result.code === 0) break;
  }
  out.iperfBitsPerSecond = JSON.parse(result.stdout).end?.sum_received?.bits_per_second ?? null;
  await iperf.exited;

  const straggler = server.spawn(['sleep', '600']);
  out.stragglerPid = straggler.pid;
  const keys = new Set();
  const pending = [];
  for (const entry of [...entries].reverse()) {
    const key = `${entry.resource.type}\0${entry.resource.id}`;
    if (!keys.has(key)) pending.push(entry.resource);
    keys.add(key);
  }
  out.teardownErrors = [];
  for (const resource of pending) {
    try {
      await plugin.teardown(resource, ctx);
    } catch (error) {
      out.teardownErrors.push(String(error));
    }
  }
  out.stragglerExit = await straggler.exited.then((r) => r.signal ?? r.code);
  out.resources = pending.map((r) => `${r.type} ${r.id}`);
} catch (error) {
  out.error = String(error?.stack ?? error);
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(out));
