import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createRegistry, planSpec } from '@netbench/core';
import { checkSpecText } from './check-spec-text.js';
import { generateSpec } from './generate-spec.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });
const SHAPED = /link\.rate shapes what .* but no trial sends bulk traffic from/;

/** The wizard's check and `netbench plan` on the same text: the same warnings, in the same order. */
async function bothWarnings(text: string): Promise<{ wizard: readonly string[]; plan: readonly string[] }> {
  const check = await checkSpecText(registry, text);
  if (!check.ok) throw new Error(JSON.stringify(check.issues));
  const file = join(mkdtempSync(join(tmpdir(), 'nbt-wizard-warnings-')), 'spec.yaml');
  writeFileSync(file, text);
  const { warnings } = await planSpec({ file, registry });
  return { wizard: check.warnings, plan: warnings };
}

describe('the wizard\'s review warns as `plan` does', () => {
  it('says when shaping is set but no trial measures the shaped direction', async () => {
    // Shaping on every host's egress, but only reverse iperf3: the client's shaped egress carries no bulk traffic.
    const text = generateSpec({ name: 'rev', question: 'throughput', tools: ['iperf3'], durationSeconds: 2, sites: [{ kind: 'local' }, { kind: 'local' }], direction: 'reverse', shaping: { rateMbit: 100 } });
    const { wizard, plan } = await bothWarnings(text);
    expect(wizard).toEqual(plan);
    const shaped = wizard.filter((w) => SHAPED.test(w));
    expect(shaped).toHaveLength(1);
    expect(shaped[0]).toMatch(/^hosts\.local-1\.link\.rate shapes what local-1 sends \(100 Mbit\/s\), but no trial sends bulk traffic from local-1 \(the throughput trials send towards it: local-2 → local-1\)/);
    expect(shaped[0]).toMatch(/Shape the sending host's link, or measure the other way/);
  });

  it('is quiet about shaping when both directions are measured', async () => {
    const text = generateSpec({ name: 'both', question: 'throughput', tools: ['iperf3'], durationSeconds: 2, sites: [{ kind: 'local' }, { kind: 'local' }], direction: 'both', shaping: { rateMbit: 100 } });
    const { wizard, plan } = await bothWarnings(text);
    expect(wizard).toEqual(plan);
    expect(wizard.filter((w) => SHAPED.test(w))).toEqual([]);
  });

  it('says so when shaping is set and only latency is measured', async () => {
    const text = generateSpec({ name: 'lat', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: [{ kind: 'local' }, { kind: 'local' }], shaping: { rateMbit: 50 } });
    const { wizard } = await bothWarnings(text);
    expect(wizard.filter((w) => /\(no trial measures throughput\)/.test(w))).toHaveLength(2);
  });
});
