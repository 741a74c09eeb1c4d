// A real local-lab run with secrets in its spec: no file of its run folder, no event, no stored or exported copy holds them.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlan, createRegistry, loadSpec, runPlan } from '@netbench/core';
import { exportResults, runStore, withStore } from '@netbench/results';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: false });
const dir = mkdtempSync(join(tmpdir(), 'nbt-secrets-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run with secrets in its spec', () => {
  it('the run folder, results.json, the store and an export hold no secret, and are owner-only', async () => {
    // Local hosts run for real; the postgres publisher fails (nothing listens on port 1) and says so without the password.
    const text = `name: secrets-run
hosts:
  a: { cloud: local }
  b: { cloud: local }
benchmarks:
  - { tool: ping, client: a, server: b, count: 2, interval: 0.05 }
publish:
  - type: json
  - type: postgres
    url: postgres://nb:s3cret-pw@127.0.0.1:1/netbench
    connectTimeout: 2
`;
    const { spec: loaded } = await loadSpec({ text, file: join(dir, 'run.yaml') }, registry);
    const plan = await createPlan(loaded, registry);
    const db = join(dir, 'store', 'netbench.db');
    const runsDir = join(dir, 'runs');
    const events: string[] = [];
    const outcome = await runPlan(plan, { registry, runsDir, store: runStore(db), onEvent: (e) => events.push(JSON.stringify(e)) });
    const runDir = join(runsDir, outcome.record.runId);
    expect(statSync(runDir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(runDir, { recursive: true }) as string[]) {
      const path = join(runDir, file);
      if (statSync(path).isDirectory()) continue;
      expect([file, readFileSync(path, 'utf8').includes('s3cret')]).toEqual([file, false]);
      // What netbench and its publishers write; a cloud plugin's own working files sit in the 0700 folder.
      if (!file.includes('/')) expect([file, statSync(path).mode & 0o777]).toEqual([file, 0o600]);
    }
    expect(readFileSync(join(runDir, 'spec.yaml'), 'utf8')).toContain('url: "[redacted]"');
    const exported = JSON.stringify(await exportResults({ db, runs: [outcome.record.runId] }));
    expect(exported).toContain('[redacted]');
    expect(exported).not.toContain('s3cret');
    const stored = await withStore(db, (store) => store.load(store.resolve(outcome.record.runId)));
    expect(stored.run.specText).not.toContain('s3cret');
    expect(events.join('\n')).not.toContain('s3cret');
  });
});
