import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerFile } from '../ledger/ledger-file.js';
import { pendingResources } from '../ledger/pending-resources.js';
import type { LedgerEntry, LedgerResource } from '../ledger/types.js';
import type { CloudPlugin, HostRequest } from '../plugin/cloud.js';
import type { Host } from '../plugin/host.js';
import type { SshConnector } from '../plugin/ssh.js';
import { newRunId } from '../run-id/run-id.js';
import { cloudCatalogChecks } from './cloud-catalog-checks.js';
import { type ConformanceCheck, check, errorText, fail } from './conformance-check.js';
import { freshProcessTeardown, type TeardownPass } from './fresh-teardown.js';
import { expectPlugin, identityChecks, type PathLike } from './plugin-identity.js';
import { type BlockExamples, parseExample, schemaChecks } from './schema-checks.js';

export interface CloudProvisionScenario {
  /** Host blocks to really provision, by host name (the cloud's own fields only). */
  readonly hosts: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * Whether a recorded resource exists (asked after provision and after
   * teardown); `undefined` when it cannot be told (e.g. a set of processes that may be empty).
   */
  exists(resource: LedgerResource): Promise<boolean | undefined>;
  /** Run `echo` on each host to prove argv is never pasted into a shell (default true). */
  readonly execCheck?: boolean;
}

export interface CloudConformanceOptions extends BlockExamples {
  readonly packageJson?: PathLike;
  /**
   * The plugin's built entry (e.g. `new URL('../dist/index.js', import.meta.url)`):
   * a fresh Node process imports it to tear down from the ledger alone.
   */
  readonly module: PathLike;
  /** Resources that do not exist (never made, or deleted already): deleting each must succeed, twice. */
  readonly goneResources: readonly LedgerResource[];
  /** Really provision, then tear down from the ledger in a fresh process. */
  readonly provision?: CloudProvisionScenario;
  /**
   * The SSH transport `provision` gets as `ctx.connectSsh`, for a cloud whose
   * hosts are reached over SSH: pass `connectSshHost` of `@netbench/core`
   * (a dev dependency of your tests). Without it, `ctx.connectSsh` rejects.
   */
  readonly connectSsh?: SshConnector;
}

const quiet = { debug() {}, info() {}, warn() {} };
const noSsh: SshConnector = async () => {
  throw new Error('this conformance run has no SSH transport: pass connectSsh (connectSshHost of @netbench/core) in the options');
};

/**
 * The conformance checks of a cloud plugin: identity, a strict host schema,
 * teardown that works from ledger entries alone in a fresh process and is
 * idempotent (gone already = success), and — given a scenario — provision
 * that records every resource in the ledger, hosts that run argv without a
 * shell, and teardown that really deletes. A `catalog()` must be a dated,
 * synchronous list with unique names; an `admitPeers` a `(peers, ctx)` function.
 */
export function cloudConformance(value: unknown, options: CloudConformanceOptions): ConformanceCheck[] {
  const plugin = () => expectPlugin(value, 'cloud');
  const checks = [
    ...identityChecks(value, 'cloud', options.packageJson),
    ...schemaChecks(() => plugin().hostSchema, 'the host schema', options),
    ...cloudCatalogChecks(plugin),
    check('teardown of resources that are already gone succeeds, twice, in a fresh process', async () => {
      if (options.goneResources.length === 0) fail('give goneResources: resources of each type the plugin makes, that do not exist');
      await withRunDir(async (runDir, runId) => {
        const ledger = join(runDir, 'ledger.jsonl');
        const lines = options.goneResources.map(
          (resource, i): LedgerEntry => ({ seq: i + 1, time: new Date().toISOString(), runId, plugin: plugin().name, phase: 'intent', resource }),
        );
        await writeFile(ledger, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
        expectClean(await freshProcessTeardown(options.module, ledger, runDir, 2), options.goneResources.length);
      });
    }),
  ];
  if (options.provision) checks.push(provisionCheck(plugin, options.module, options.provision, options.connectSsh ?? noSsh));
  const cleanup = check('cleanup (when defined) of a run that never existed finds nothing and deletes nothing', async () => {
    const cloud = plugin();
    if (!cloud.cleanup) return;
    const report = await cloud.cleanup({ runId: newRunId(), dryRun: true }, { runId: 'conformance', runDir: tmpdir(), signal: AbortSignal.timeout(60_000), log: quiet });
    if (!Array.isArray(report?.found) || !Array.isArray(report?.failed)) fail('cleanup must return { found: [], failed: [] }');
    if (report.found.length > 0) fail(`cleanup found resources of a run that never existed: ${JSON.stringify(report.found)}`);
    if (report.spared !== undefined && (!Array.isArray(report.spared) || report.spared.length > 0))
      fail(`cleanup spared resources of a run that never existed (spared lists only resources of excludeRunIds): ${JSON.stringify(report.spared)}`);
  });
  return [...checks, cleanup];
}

function provisionCheck(plugin: () => CloudPlugin<unknown>, module: PathLike, scenario: CloudProvisionScenario, connectSsh: SshConnector): ConformanceCheck {
  return check('provision records every resource before teardown deletes it from the ledger alone, in a fresh process, idempotently', async () => {
    const cloud = plugin();
    await withRunDir(async (runDir, runId) => {
      const file = join(runDir, 'ledger.jsonl');
      const ledger = await LedgerFile.open(file, runId);
      const requests: HostRequest<unknown>[] = Object.entries(scenario.hosts).map(([name, block]) => ({
        id: name,
        name,
        cloud: cloud.name,
        config: parseExample(cloud.hostSchema, block, `hosts.${name}`) as Record<string, unknown>,
      }));
      const signal = AbortSignal.timeout(300_000);
      let hosts: Host[] = [];
      try {
        hosts = await cloud.provision(requests, { runId, runDir, signal, log: quiet, ledger: ledger.forPlugin(cloud.name), connectSsh });
        if (!Array.isArray(hosts) || hosts.length !== requests.length)
          fail(`provision returned ${Array.isArray(hosts) ? hosts.length : 'no'} hosts for ${requests.length} requests`);
        hosts.forEach((host, i) => {
          if (host.id !== requests[i]!.id) fail(`host #${i} has id ${host.id}, not ${requests[i]!.id}: return hosts in request order`);
          if (typeof host.internalIp !== 'string' || host.internalIp === '') fail(`host ${host.id} has no internalIp`);
          if (host.cloud !== cloud.name) fail(`host ${host.id} says cloud ${host.cloud}, not ${cloud.name}`);
        });
        if (scenario.execCheck !== false) {
          for (const host of hosts) {
            const result = await host.exec(['echo', 'a; echo "$HOME" `id`'], { timeoutMs: 30_000 });
            if (result.stdout !== 'a; echo "$HOME" `id`\n') fail(`host ${host.id} ran argv through a shell: echo printed ${JSON.stringify(result.stdout)}`);
          }
        }
        const pending = pendingResources(ledger.entries).map((e) => e.resource);
        for (const resource of pending) {
          if ((await scenario.exists(resource)) === false) fail(`the ledger records ${resource.type} ${resource.id}, which does not exist after provision`);
        }
        for (const host of hosts) await host.close?.();
        await ledger.close();
        // Checked after the first pass alone: a later one must not hide what the first left.
        expectClean(await freshProcessTeardown(module, file, runDir, 1), pending.length);
        for (const resource of pending) {
          if ((await scenario.exists(resource)) === true) fail(`${resource.type} ${resource.id} still exists after teardown`);
        }
        expectClean(await freshProcessTeardown(module, file, runDir, 2), pending.length, 1);
      } finally {
        // Whatever happened above, leave nothing behind.
        await Promise.allSettled(hosts.map((h) => h.close?.()));
        await ledger.close().catch(() => {});
        for (const entry of pendingResources(ledger.entries)) {
          await cloud.teardown(entry.resource, { runId, runDir, signal: AbortSignal.timeout(120_000), log: quiet }).catch(() => {});
        }
      }
    });
  });
}

function expectClean(passes: readonly TeardownPass[], expected: number, before = 0): void {
  passes.forEach((pass, i) => {
    const when = i + before === 0 ? 'teardown' : `teardown pass ${i + before + 1} (idempotency)`;
    if (pass.failed.length > 0) fail(`${when} failed: ${pass.failed.map((f) => `${f.resource}: ${f.error}`).join('; ')}`);
    if (pass.deleted.length !== expected) fail(`${when} visited ${pass.deleted.length} resources, expected ${expected}`);
  });
}

async function withRunDir(body: (runDir: string, runId: string) => Promise<void>): Promise<void> {
  const runDir = await mkdtemp(join(tmpdir(), 'netbench-conformance-'));
  try {
    await body(runDir, newRunId());
  } catch (error) {
    throw error instanceof Error && error.name === 'ConformanceError' ? error : new Error(errorText(error), { cause: error });
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}
