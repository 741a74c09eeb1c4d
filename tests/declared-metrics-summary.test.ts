// Every built-in tool's declared metrics give `results show` the same result,
// percentiles and loss the built-in name patterns gave, read from a real
// local-lab run of one short trial of each tool and mode; so the name
// patterns are needed only for files imported without a plugin.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResults, ToolPlugin } from '@netbench/plugin-api';
import fping from '@netbench/plugin-fping';
import http from '@netbench/plugin-http';
import iperf from '@netbench/plugin-iperf';
import iperf3 from '@netbench/plugin-iperf3';
import irtt from '@netbench/plugin-irtt';
import netperf from '@netbench/plugin-netperf';
import ping from '@netbench/plugin-ping';
import { runShow } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const tools: readonly ToolPlugin<unknown>[] = [ping, fping, irtt, netperf, iperf3, iperf, http] as ToolPlugin<unknown>[];
const results = JSON.parse(readFileSync(join(repoRoot, 'packages/results/src/store/__fixtures__/every-tool-results.json'), 'utf8')) as RunResults;

describe('results show from declared metrics', () => {
  const toolMetrics = Object.fromEntries(tools.map((t) => [t.name, t.metrics ?? {}]));
  const declared = runShow('', { ...results, run: { ...results.run, toolMetrics } }).trials;
  // As runs before per-tool declarations read: names matched, the run's merged declarations first.
  const byName = runShow('', results).trials;
  // Which metric the percentiles came from is named differently (the declaring metric, or the name's family).
  const unnamed = ({ latency, ...rest }: (typeof declared)[number]['summary']) => ({ ...rest, ...(latency ? { latency: { ...latency, metric: '' } } : {}) });

  it.each(declared.map((t, i) => [t.id, `${t.tool} ${t.test}`, i] as const))('%s (%s): the same summary', (_id, _what, i) => {
    expect(declared[i]!.status).toBe('succeeded');
    expect(unnamed(declared[i]!.summary)).toEqual(unnamed(byName[i]!.summary));
    expect(results.run.toolMetrics).toBeUndefined();
  });

  it('every built-in tool declares metrics (the name patterns are a fallback only)', () => {
    for (const tool of tools) expect(Object.keys(tool.metrics ?? {}), tool.name).not.toHaveLength(0);
    expect(declared.filter((t) => t.summary.headline !== undefined).length).toBeGreaterThanOrEqual(declared.length - 1);
    // Read from the declarations: the percentiles are named by the metric that declares them.
    expect(declared.find((t) => t.tool === 'ping')?.summary.latency?.metric).toBe('Average Latency');
    expect(declared.find((t) => t.test === 'TCP_RR')?.summary.latency?.metric).toBe('TCP_RR_Latency_p50');
  });
});
