import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { Host, HostRequest, Ledger, LedgerResource, ProvisionContext, SshHostOptions } from '@netbench/plugin-api';
import { cloudConformance } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The transport's own test sshd (a real sshd on 127.0.0.1).
import { keygen, startTestSshd, type TestSshd } from '../../../core/src/transport/ssh/test-support/test-sshd.js';
import { hostSchema, type StaticHostConfig } from './host-schema.js';
import plugin from './index.js';

let sshd: TestSshd;
let dir: string;

function context(): ProvisionContext & { resources: LedgerResource[]; warnings: string[] } {
  const resources: LedgerResource[] = [];
  const warnings: string[] = [];
  const ledger: Ledger = {
    entries: [],
    async track(resource, create) {
      resources.push(resource);
      return create();
    },
    async created(resource) {
      resources.push(resource);
    },
  };
  return {
    runId: `20260101-000000-st${process.pid}`,
    runDir: dir,
    signal: AbortSignal.timeout(60_000),
    log: { debug() {}, info() {}, warn: (m) => void warnings.push(m) },
    ledger,
    resources,
    warnings,
    connectSsh: (o: SshHostOptions) => connectSshHost(o),
  };
}

const host = (name: string, config: Partial<StaticHostConfig> = {}): HostRequest<StaticHostConfig> => ({
  id: name,
  name,
  cloud: 'static',
  config: hostSchema.parse({ address: '127.0.0.1', port: sshd.port, user: 'root', key: sshd.clientKey, knownHosts: sshd.knownHosts, ...config }),
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), `nbt-static-${process.pid}-`));
  await keygen(join(dir, 'locked'), 'sesame');
  const { readFileSync } = await import('node:fs');
  sshd = await startTestSshd({ extraKeys: [readFileSync(join(dir, 'locked.pub'), 'utf8')] });
});
afterAll(async () => {
  await sshd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('static cloud', () => {
  it('labels congestion control and CPU count from what the connection read as it opened: no command of its own', async () => {
    const commands: string[] = [];
    // The real connection, noting every command provision asks of it.
    const ctx = {
      ...context(),
      connectSsh: async (o: SshHostOptions) => {
        const connected = await connectSshHost(o);
        const exec = connected.exec.bind(connected);
        return Object.assign(connected, {
          exec: (argv: readonly string[], options?: Parameters<typeof exec>[1]) => {
            commands.push(argv.join(' '));
            return exec(argv, options);
          },
        });
      },
    };
    const [made] = await plugin.provision([host('client')], ctx);
    expect(made!.labels).toMatchObject({
      tcp_congestion_control: readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim(),
      cpu_count: String(availableParallelism()),
    });
    expect(commands).toEqual([]);
    for (const resource of ctx.resources) await plugin.teardown(resource, ctx);
  });

  it('connects to every host at once, one connection each, recorded and labelled; teardown closes them', async () => {
    const ctx = context();
    const hosts: Host[] = await plugin.provision([host('client', { labels: { rack: 'r1' }, zone: 'dc1' }), host('server', { internalAddress: '10.9.9.9' })], ctx);
    expect(hosts.map((h) => [h.id, h.cloud, h.zone, h.internalIp, h.externalIp])).toEqual([
      ['client', 'static', 'dc1', '127.0.0.1', undefined],
      ['server', 'static', undefined, '10.9.9.9', '127.0.0.1'],
    ]);
    expect(hosts[0]!.labels).toEqual({
      rack: 'r1',
      host_key_verification: 'known-hosts',
      tcp_congestion_control: readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim(),
      cpu_count: String(availableParallelism()),
    });
    expect(ctx.resources.map((r) => `${r.type} ${r.id}`)).toEqual(['connection ssh@client', 'connection ssh@server']);
    expect(JSON.stringify(ctx.resources)).not.toContain(sshd.clientKey.replace(/id_ed25519$/, 'secret'));
    expect((await hosts[1]!.exec(['echo', 'ok'])).stdout).toBe('ok\n');
    expect(sshd.liveConnections()).toBe(2);
    for (const resource of ctx.resources) await plugin.teardown(resource, ctx);
    for (const resource of ctx.resources) await plugin.teardown(resource, ctx); // idempotent
    await expect(hosts[0]!.exec(['true'])).rejects.toThrow(/closed/);
    // sshd's per-connection process exits a moment after the client hangs up.
    await expect.poll(() => sshd.liveConnections(), { timeout: 5000 }).toBe(0);
  });

  it('when one host cannot be reached, reports it and closes the others', async () => {
    const ctx = context();
    const error = await plugin.provision([host('good'), host('gone', { port: 1, connectRetry: { attempts: 2, initialDelayMs: 50 } })], ctx).catch((e: Error) => e);
    expect(String(error)).toMatch(/host gone \(127\.0\.0\.1:1\) unreachable after 2 attempts over \d+\.\d s: .*ECONNREFUSED/);
    await expect.poll(() => sshd.liveConnections(), { timeout: 5000 }).toBe(0);
  });

  it('congestionControl is checked against what the host reports, never changed', async () => {
    const ctx = context();
    const current = readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim();
    const [same] = await plugin.provision([host('same', { congestionControl: current })], ctx);
    expect(same!.labels.tcp_congestion_control).toBe(current);
    await same!.close!();
    const other = current === 'reno' ? 'cubic' : 'reno';
    const error = await plugin.provision([host('other', { congestionControl: other })], context()).catch((e: Error) => e);
    expect(String(error)).toContain(`static: host other uses TCP congestion control ${current}, not ${other}`);
    expect(String(error)).toContain(`sudo sysctl -w net.ipv4.tcp_congestion_control=${other}`);
    expect(readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim()).toBe(current);
  });

  it('preflight lists every problem before connecting', async () => {
    const ctx = context();
    const error = await plugin.preflight!(
      [host('a', { key: '/nonexistent/id' }), host('b', { knownHosts: '/nonexistent/kh', passphraseEnv: 'NBT_UNSET_PASSPHRASE', key: sshd.clientKey })],
      ctx,
    ).catch((e: Error) => e);
    expect(String(error)).toMatch(/hosts\.a\.key: cannot read private key \/nonexistent\/id \(ENOENT\)/);
    expect(String(error)).toMatch(/hosts\.b\.knownHosts: cannot read known_hosts file \/nonexistent\/kh/);
    expect(String(error)).toMatch(/hosts\.b\.passphraseEnv: environment variable NBT_UNSET_PASSPHRASE is not set/);
  });

  it('unlocks a key with the passphrase from the environment, and never shows it', async () => {
    process.env.NBT_STATIC_PASSPHRASE = 'sesame';
    const ctx = context();
    const [h] = await plugin.provision([host('locked', { key: join(dir, 'locked'), passphraseEnv: 'NBT_STATIC_PASSPHRASE' })], ctx);
    expect((await h!.exec(['echo', 'open'])).stdout).toBe('open\n');
    await h!.close!();
    process.env.NBT_STATIC_PASSPHRASE = 'not sesame';
    const wrong = await plugin.provision([host('locked', { key: join(dir, 'locked'), passphraseEnv: 'NBT_STATIC_PASSPHRASE' })], context()).catch((e: Error) => e);
    expect(String(wrong)).toMatch(/wrong passphrase/);
    expect(String(wrong)).not.toContain('not sesame');
    delete process.env.NBT_STATIC_PASSPHRASE;
    const literal = context();
    // A literal passphrase works too; it is a secret field, so the stored spec has it redacted (core's job, tested there).
    await plugin.provision([host('locked', { key: join(dir, 'locked'), passphrase: 'sesame' })], literal).then((hs) => hs[0]!.close!());
    expect(literal.warnings.join('\n')).not.toContain('sesame');
  });
});

describe('static cloud conformance', () => {
  // The options need the sshd's port, known only once it runs: build the checks lazily.
  const names = ['identity', 'schema', 'teardown gone', 'provision', 'cleanup'];
  let checks: ReturnType<typeof cloudConformance> | undefined;
  const get = () =>
    (checks ??= cloudConformance(plugin, {
      packageJson: new URL('../package.json', import.meta.url),
      module: new URL('../dist/index.js', import.meta.url),
      validBlocks: [{ address: '10.0.0.1' }, { address: 'db.example', port: 2222, user: 'bench', key: '~/.ssh/id', jump: { address: 'b' } }],
      invalidBlocks: [{}, { address: 'x', port: 'ssh' }, { address: 'x', password: 'p' }],
      goneResources: [{ type: 'connection', id: 'ssh@gone', host: 'gone', data: { address: '192.0.2.1', port: 22, user: 'root' } }],
      provision: { hosts: { a: { address: '127.0.0.1', port: sshd.port, user: 'root', key: sshd.clientKey, knownHosts: sshd.knownHosts } }, exists: async () => undefined },
      connectSsh: (options) => connectSshHost(options),
    }));
  it('passes every conformance check', async () => {
    const all = get();
    expect(all.length).toBeGreaterThanOrEqual(names.length);
    for (const check of all) await check.run();
  }, 120_000);
});
