// Run by the conformance kit as a fresh Node process: tears down every
// pending resource of one cloud plugin from a ledger file alone, the way
// `netbench cleanup` does after a crash. Passes > 1 repeat the whole
// teardown, to prove deletes are idempotent; a plugin with teardownMany
// gets the first pass (and every other one) as one batch.
//
//   node teardown-child.js <plugin module URL> <ledger.jsonl> <runDir> <passes>

import { pendingResources } from '../ledger/pending-resources.js';
import { readLedger } from '../ledger/read-ledger.js';
import type { LedgerResource } from '../ledger/types.js';
import { isPlugin } from '../plugin/define-plugin.js';

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
  const pending = pendingResources(entries).map((entry) => entry.resource);
  const label = (resource: LedgerResource) => `${resource.type} ${resource.id}`;
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const ctx = () => ({ runId, runDir: runDir!, signal: AbortSignal.timeout(120_000), log });
  // The engine's way: a plugin with teardownMany gets the whole batch (the first pass and every
  // other one after it); the passes between go one by one, as a fallback or a cleanup would.
  if (plugin.teardownMany && pass % 2 === 0) {
    try {
      const outcomes = await plugin.teardownMany(pending, ctx());
      if (!Array.isArray(outcomes) || outcomes.length !== pending.length)
        throw new Error(`teardownMany answered ${Array.isArray(outcomes) ? outcomes.length : typeof outcomes} outcomes for ${pending.length} resources`);
      pending.forEach((resource, i) => {
        if (outcomes[i] === undefined) deleted.push(label(resource));
        else failed.push({ resource: label(resource), error: message(outcomes[i]) });
      });
    } catch (error) {
      for (const resource of pending) failed.push({ resource: label(resource), error: `teardownMany: ${message(error)}` });
    }
    passes.push({ deleted, failed });
    continue;
  }
  for (const resource of pending) {
    try {
      await plugin.teardown(resource, ctx());
      deleted.push(label(resource));
    } catch (error) {
      failed.push({ resource: label(resource), error: message(error) });
    }
  }
  passes.push({ deleted, failed });
}
process.stdout.write(`${JSON.stringify({ passes })}\n`);
