import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults, TrialRecord } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { renderHtml } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';

const quickstart = JSON.parse(readFileSync(join(import.meta.dirname, '../../results/src/store/__fixtures__/quickstart-results.json'), 'utf8')) as RunResults;
const shaped: TrialRecord['explain'] = {
  diagnoses: [
    {
      rule: 'shaped-link',
      host: 'server',
      summary: "equals the tbf rate on server's eth0 (200.0 Mbit/s; measured 95.7 % of it, 5488 packets held back)",
      threshold: "throughput ≥ 90 % of a shaping qdisc's rate that was over its limit",
      evidence: { rate: 200e6 },
    },
  ],
  hosts: [
    { host: 'client', role: 'client' },
    { host: 'server', role: 'server' },
  ],
};
const withExplain = (explain: (id: string) => TrialRecord['explain']): RunResults => ({
  ...quickstart,
  run: {
    ...quickstart.run,
    trials: quickstart.run.trials.map((t) => {
      const e = explain(t.id);
      return e ? { ...t, explain: e } : t;
    }),
  },
});

describe('the report says what limited each trial', () => {
  it('a finding per trial with its rule and threshold, then the trials with no limit found, in HTML and Markdown', () => {
    const results = withExplain((id) => (id === 't0001' ? shaped : { diagnoses: [], hosts: [] }));
    const ids = results.run.trials.map((t) => t.id);
    const md = renderMarkdown([results], []);
    expect(md).toContain('### What limited each trial');
    expect(md).toContain('- t0001  equals the tbf rate on server&#39;s eth0 (200.0 Mbit/s; measured 95.7 % of it, 5488 packets held back)  [shaped-link: throughput ≥ 90 %');
    expect(md).toContain(`- no limit found: ${ids.slice(1).join(', ')}`);
    const html = renderHtml([results], []);
    expect(html).toContain('<h3>What limited each trial</h3>');
    expect(html).toContain('t0001  equals the tbf rate on server&#39;s eth0');
  });

  it('a run measured without counters has no such section', () => {
    expect(renderMarkdown([quickstart], [])).not.toContain('What limited');
    expect(renderHtml([quickstart], [])).not.toContain('What limited');
  });
});
