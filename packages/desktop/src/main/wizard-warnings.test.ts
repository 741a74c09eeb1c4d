import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry, planSpec } from '@netbench/core';
import { describe, expect, it } from 'vitest';
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

describe("the wizard's review warns as `plan` does", () => {
  it('writes a rate only where a trial sends bulk traffic; an edit that shapes the other host warns, as plan does', async () => {
    // Only reverse iperf3: the server sends, so only its link is shaped and nothing warns.
    const text = generateSpec({
      name: 'rev',
      question: 'throughput',
      tools: ['iperf3'],
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      direction: 'reverse',
      shaping: { rateMbit: 100 },
    });
    const generated = await bothWarnings(text);
    expect(generated.wizard).toEqual([]);
    expect(generated.plan).toEqual([]);
    // Shaping the client's egress by hand: a rate no trial measures.
    const edited = text.replace('  local-1:\n    cloud: local\n', '  local-1:\n    cloud: local\n    link:\n      rate: 100mbit\n');
    expect(edited).not.toBe(text);
    const { wizard, plan } = await bothWarnings(edited);
    expect(wizard).toEqual(plan);
    const shaped = wizard.filter((w) => SHAPED.test(w));
    expect(shaped).toHaveLength(1);
    expect(shaped[0]).toMatch(
      /^hosts\.local-1\.link\.rate shapes what local-1 sends \(100 Mbit\/s\), but no trial sends bulk traffic from local-1 \(the throughput trials send towards it: local-2 → local-1\)/,
    );
    expect(shaped[0]).toMatch(/Shape the sending host's link, or measure the other way/);
  });

  it('is quiet about shaping when both directions are measured', async () => {
    const text = generateSpec({
      name: 'both',
      question: 'throughput',
      tools: ['iperf3'],
      durationSeconds: 2,
      sites: [{ kind: 'local' }, { kind: 'local' }],
      direction: 'both',
      shaping: { rateMbit: 100 },
    });
    const { wizard, plan } = await bothWarnings(text);
    expect(wizard).toEqual(plan);
    expect(wizard.filter((w) => SHAPED.test(w))).toEqual([]);
  });

  it('says so when a rate is set by hand and only latency is measured', async () => {
    const text = generateSpec({ name: 'lat', question: 'latency', tools: ['ping'], durationSeconds: 1, sites: [{ kind: 'local' }, { kind: 'local' }] });
    const edited = text.replaceAll('    cloud: local\n', '    cloud: local\n    link: { rate: 50mbit }\n');
    const { wizard } = await bothWarnings(edited);
    expect(wizard.filter((w) => /\(no trial measures throughput\)/.test(w))).toHaveLength(2);
  });
});
