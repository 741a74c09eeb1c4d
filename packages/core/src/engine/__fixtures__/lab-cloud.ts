// A real cloud plugin for tests: its "machines" are loopback process hosts,
// and each one owns real resources (a folder and a `sleep` process) that are
// recorded in the ledger and deleted by `teardown`, also from a fresh process.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import type { LedgerResource } from '@netbench/plugin-api';
import { processHost } from '@netbench/plugin-api';

const hostSchema = z.strictObject({
  /** Folder the host's resources are made in. */
  root: z.string(),
  /** Create this host's folder, then fail (inside the ledger's `track`). */
  failProvision: z.boolean().default(false),
  /** The folder's teardown throws (the process is still deleted). */
  failTeardown: z.boolean().default(false),
  /** The lab tool reports itself missing on this host until installed. */
  toolMissing: z.boolean().default(false),
  /** Packages for this host are installed through another host (`Host.installHost`, as the local lab's root namespace). */
  sharedInstaller: z.boolean().optional(),
  /** The address the host reports (as a misbehaving cloud plugin might). */
  internalIp: z.string().optional(),
});

export type LabHostConfig = z.infer<typeof hostSchema>;

/** The argv of a host's keeper process; the odd duration makes its /proc cmdline unique. */
const keeperArgv = () => ['sleep', `3600.${String(randomInt(1_000_000)).padStart(6, '0')}`];

export default definePlugin({
  kind: 'cloud',
  name: 'lab',
  version: '0.0.1',
  hostSchema,
  async provision(requests, ctx) {
    const hosts = [];
    for (const request of requests) {
      const config = request.config as LabHostConfig;
      const dir = join(config.root, `${ctx.runId}-${request.id}`);
      const dirResource: LedgerResource = { type: 'dir', id: dir, host: request.id, data: { failTeardown: config.failTeardown } };
      await ctx.ledger.track(dirResource, async () => {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'host.txt'), `${request.id}\n`);
        if (config.failProvision) throw new Error(`lab cannot make host ${request.id}`);
      });
      const argv = keeperArgv();
      const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: 'ignore' });
      child.unref();
      await ctx.ledger.created({ type: 'process', id: String(child.pid), host: request.id, data: { argv } });
      hosts.push(processHost({
        id: request.id,
        name: request.name,
        cloud: 'lab',
        internalIp: config.internalIp ?? '127.0.0.1',
        zone: 'lab-a',
        region: 'lab',
        machineType: 'process',
        labels: { dir, ...(config.toolMissing ? { tool_missing: 'true' } : {}) },
        ...(config.sharedInstaller ? { installHost: processHost({ id: 'lab-installer', name: 'lab installer', cloud: 'lab', internalIp: '127.0.0.1' }) } : {}),
      }));
    }
    return hosts;
  },
  async teardown(resource) {
    if (resource.type === 'dir') {
      if (resource.data?.['failTeardown'] === true) throw new Error(`lab refuses to delete ${resource.id}`);
      await rm(resource.id, { recursive: true, force: true });
    } else if (resource.type === 'process') {
      await killIfOurs(Number(resource.id), resource.data?.['argv'] as string[]);
    } else {
      throw new Error(`unknown resource type ${resource.type}`);
    }
  },
});

/**
 * Kill a keeper process if it is still the one we started (pids get reused)
 * and wait until it is gone: a delete that returns means the resource no
 * longer exists. Gone already is success.
 */
export async function killIfOurs(pid: number, argv: readonly string[]): Promise<void> {
  if (!isAlive(pid, argv)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
  for (let waited = 0; isAlive(pid, argv); waited += 10) {
    if (waited > 5000) throw new Error(`process ${pid} survived SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether `pid` runs exactly `argv` (and is not a zombie). */
export function isAlive(pid: number, argv: readonly string[]): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/\) Z /.test(stat)) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `${argv.join('\0')}\0`;
  } catch {
    return false;
  }
}
