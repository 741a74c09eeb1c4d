import { chmodSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Host } from '@netbench/plugin-api';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import plugin from './index.js';
import { ROOT_INSTALLER_ID } from './provision.js';
import { request, testRun } from './test-support/lab.js';

// A namespace host has no route or DNS, so apt-get inside it fails on a fresh
// machine ("Temporary failure resolving"). Its installHost runs commands in
// the root namespace, which shares the filesystem. Checked without the
// network: an `apt-get` first on PATH records the network namespace it ran in.
describe('local lab: tools are installed from the root namespace', () => {
  const run = testRun();
  const shims = mkdtempSync(join(tmpdir(), 'nbt-local-apt-shim-'));
  const record = join(shims, 'calls.log');
  const savedPath = process.env.PATH;
  let host: Host | undefined;

  beforeAll(async () => {
    writeFileSync(join(shims, 'apt-get'), `#!/bin/sh\necho "$(readlink /proc/self/ns/net) $*" >> '${record}'\n`);
    chmodSync(join(shims, 'apt-get'), 0o755);
    process.env.PATH = `${shims}:${savedPath ?? ''}`;
    [host] = await plugin.provision([request('client')], run.ctx);
  }, 60_000);

  afterAll(async () => {
    process.env.PATH = savedPath;
    await run.teardown(plugin);
    run.dispose();
    rmSync(shims, { recursive: true, force: true });
  }, 60_000);

  it('gives each namespace host an installer in the root namespace, shared by all hosts', async () => {
    expect(host?.installHost?.id).toBe(ROOT_INSTALLER_ID);
    const inside = await host!.exec(['readlink', '/proc/self/ns/net']);
    const installer = await host!.installHost!.exec(['readlink', '/proc/self/ns/net']);
    const root = readlinkSync('/proc/self/ns/net');
    expect(installer.stdout.trim()).toBe(root);
    expect(inside.stdout.trim()).not.toBe(root);
  });

  it("runs a tool's apt-get install outside the namespace", async () => {
    const ctx = { signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} } } as unknown as Parameters<typeof installAptPackage>[2];
    await installAptPackage(host!.installHost!, 'netbench-test-package', ctx);
    const calls = readFileSync(record, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBe(`${readlinkSync('/proc/self/ns/net')} -o DPkg::Lock::Timeout=120 install -y netbench-test-package`);
  });
});
