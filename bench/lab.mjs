import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerFile, newRunId, pendingResources, readLedger } from '@netbench/plugin-api';
import local from '@netbench/plugin-local';
import { tempDir } from './lib.mjs';

const quiet = { debug() {}, info() {}, warn() {} };

/**
 * Two lab namespaces, `client` and `server`, from the local plugin in a run
 * folder of their own (ledger, `raw/`), for benches that put a tool run by
 * hand next to the same run through a plugin. `close` tears down what the
 * ledger lists, as `netbench cleanup` would.
 */
export async function openBenchLab(prefix) {
  const runsDir = tempDir(prefix);
  const runId = newRunId();
  const runDir = join(runsDir, runId);
  mkdirSync(join(runDir, 'raw'), { recursive: true });
  const ledger = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  const ctx = { runId, runDir, signal: new AbortController().signal, log: quiet };
  const requests = ['client', 'server'].map((name) => ({ id: name, name, cloud: 'local', config: {} }));
  const [client, server] = await local.provision(requests, { ...ctx, ledger: ledger.forPlugin('local') });
  return {
    client,
    server,
    ctx,
    runDir,
    async close() {
      for (const entry of pendingResources(await readLedger(join(runDir, 'ledger.jsonl')))) {
        await local.teardown(entry.resource, ctx).catch((e) => console.log(`  teardown: ${e.message}`));
      }
      await ledger.close();
    },
  };
}
