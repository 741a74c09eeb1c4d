// Run by the conformance kit as a fresh Node process: tears down every
// pending resource of one cloud plugin from a ledger file alone, the way
// `netbench cleanup` does after a crash. Passes > 1 repeat the whole
// teardown, to prove deletes are idempotent.
//
//   node teardown-child.js <plugin module URL> <ledger.jsonl> <runDir> <passes>
import { isPlugin } from '../plugin/define-plugin.js';
import { pendingResources } from '../ledger/pending-resources.js';
import { readLedger } from '../ledger/read-ledger.js';

const [moduleUrl, ledgerFile, runDir, passesArg] = process.argv.slice(2);
const plugin = ((await import(moduleUrl!)) as { default?: unknown }).default;
if (!isPlugin(plugin) || plugin.kind !== 'cloud') throw new Error(`${moduleUrl} does not default-export a cloud plugin`);
const entries = (await readLedger(ledgerFile!)).filter((e) => e.plugin === plugin.name);
const runId = entries[0]?.runId ?? 'conformance';
const log = { debug() {}, info() {}, warn() {} };
const passes = [];
for (let pass = 0; pass < Number(passesArg ?? 1); pass++) {
  const deleted: string[] = [];
  const failed: { resource: string; error: string }[] = [];
  for (const entry of pendingResources(entries)) {
    const label = `${entry.resource.type} ${entry.resource.id}`;
    try {
      await plugin.teardown(entry.resource, { runId, runDir: runDir!, signal: AbortSignal.timeout(120_000), log });
      deleted.push(label);
    } catch (error) {
      failed.push({ resource: label, error: error instanceof Error ? error.message : String(error) });
    }
  }
  passes.push({ deleted, failed });
}
process.stdout.write(`${JSON.stringify({ passes })}\n`);
