import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { CloudPlugin, Host, HostRequest, ProvisionContext, SshHostOptions } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { findForwardRules } from '../forward-rule.js';
import type { LocalHostConfig } from '../host-schema.js';

/** A run id shaped like the engine's, unique per call so parallel test files never collide. */
export function testRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const tag = [...randomBytes(6)].map((b) => alphabet[b % 36]).join('');
  return `${stamp}-${tag}`;
}

export interface TestRun {
  readonly ctx: ProvisionContext & { readonly ledger: MemoryLedger };
  readonly warnings: string[];
  /** Tear down every ledger resource newest first, as the engine does; returns the errors. */
  teardown(plugin: CloudPlugin<LocalHostConfig>): Promise<unknown[]>;
  /** Remove the run folder. */
  dispose(): void;
}

export function testRun(runId = testRunId()): TestRun {
  const runDir = mkdtempSync(join(tmpdir(), `nbt-local-${runId}-`));
  const ledger = new MemoryLedger(runId, 'local');
  const warnings: string[] = [];
  const ctx = {
    runId,
    runDir,
    signal: new AbortController().signal,
    log: { debug() {}, info() {}, warn: (message: string) => void warnings.push(message) },
    ledger,
    connectSsh: (options: SshHostOptions) => connectSshHost(options),
  };
  return {
    ctx,
    warnings,
    async teardown(plugin) {
      const errors: unknown[] = [];
      for (const resource of ledger.pending()) {
        try {
          await plugin.teardown(resource, ctx);
        } catch (error) {
          errors.push(error);
        }
      }
      return errors;
    },
    dispose() {
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

export function request(id: string, config: LocalHostConfig = {}): HostRequest<LocalHostConfig> {
  return { id, name: id.split('@')[0]!, cloud: 'local', config };
}

/** Run in a host and fail loudly with its output when it does not exit 0. */
export async function hostRun(host: Host, argv: string[], timeoutMs = 20_000): Promise<string> {
  const result = await host.exec(argv, { timeoutMs });
  if (result.code !== 0) throw new Error(`${argv.join(' ')} on ${host.id} exited ${result.code}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** What of a run is still on the machine: namespaces, links, processes and FORWARD rules carrying its names. */
export async function leftovers(runId: string, tag: string): Promise<string[]> {
  const found: string[] = [];
  const netns = await runCommand(['ip', 'netns', 'list']);
  for (const line of netns.stdout.split('\n')) if (line.includes(`nb-${runId}-`)) found.push(`netns ${line.trim()}`);
  const links = await runCommand(['ip', '-o', 'link', 'show']);
  for (const line of links.stdout.split('\n')) if (line.includes(`nb${tag}`)) found.push(`link ${line.split(':')[1]?.trim()}`);
  const ps = await runCommand(['ps', '-eo', 'pid,args']);
  for (const line of ps.stdout.split('\n')) if (line.includes(runId) && !line.includes('ps -eo')) found.push(`process ${line.trim()}`);
  for (const rule of await findForwardRules()) if (rule.runId === runId) found.push(`firewall FORWARD ${rule.bridge}`);
  return found;
}
