import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staticRegistry } from '@netbench/core';
import type { NetbenchEvent, RunResults, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin, ParseError, z } from '@netbench/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import { runShow } from '../store/show-result.js';
import { ImportError } from './import-error.js';
import { importFiles } from './import-files.js';

// A small real tool: "rtt <ms>" lines, `rtt` at the top, a ParseError naming the line of anything else.
function lineTool(name: string, keyword: string): ToolPlugin<unknown> {
  return definePlugin<ToolPlugin<unknown>>({
    kind: 'tool',
    name,
    schema: z.strictObject({}),
    trials: () => [{ test: 'x', params: {}, estimatedSeconds: 0 }],
    check: async () => ({ version: '1', features: {} }),
    run: async () => ({ samples: [] }),
    parse(raw, options) {
      const values = raw
        .trim()
        .split('\n')
        .map((line, index) => {
          const match = new RegExp(`^${keyword} (\\d+(?:\\.\\d+)?)$`).exec(line);
          if (!match) throw new ParseError(`not a ${keyword} line`, options?.source, index + 1);
          return Number(match[1]);
        });
      return [{ metric: 'Average Latency', value: values.reduce((a, b) => a + b, 0) / values.length, unit: 'ms', labels: { test: `${keyword}-test`, count: values.length } }];
    },
    sniff: (head) => head.startsWith(`${keyword} `),
  });
}

let dir: string;
const registry = staticRegistry([lineTool('alpha', 'rtt'), lineTool('beta', 'bw')]);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const readResults = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as RunResults;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nbt-import-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('importFiles', () => {
  it("makes a run: one trial per file, raw copies, samples labelled like a trial's, events, results.json, the store", async () => {
    const a = file('a.txt', 'rtt 1\nrtt 3\n');
    const b = file('b.log', 'bw 100\n');
    utimesSync(a, new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    const events: NetbenchEvent[] = [];
    const outcome = await importFiles({
      tool: 'auto',
      files: [a, b],
      registry,
      runsDir: join(dir, 'runs'),
      runId: 'r1',
      db: join(dir, 'nb.db'),
      labels: { site: 'lab', test: 'mine' },
      name: 'imported-lab',
      onEvent: (e) => events.push(e),
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.storedIn).toBe(join(dir, 'nb.db'));
    expect(outcome.files.map((f) => [f.trialId, f.tool, f.test, f.status, f.samples])).toEqual([
      ['t0001', 'alpha', 'rtt-test', 'succeeded', 1],
      ['t0002', 'beta', 'bw-test', 'succeeded', 1],
    ]);
    const runDir = join(dir, 'runs', 'r1');
    expect(readdirSync(runDir).sort()).toEqual(['events.jsonl', 'raw', 'results.json', 'samples.jsonl']);
    expect(readdirSync(join(runDir, 'raw')).sort()).toEqual(['t0001-a.txt', 't0002-b.log']);
    expect(readFileSync(join(runDir, 'raw', 't0001-a.txt'), 'utf8')).toBe('rtt 1\nrtt 3\n');

    const { run, samples } = readResults(runDir);
    expect(run).toMatchObject({
      runId: 'r1',
      name: 'imported-lab',
      status: 'succeeded',
      hosts: [],
      errors: [],
      labels: { run_id: 'r1', spec: 'imported-lab', imported: true, site: 'lab' },
    });
    expect(run.trials[0]).toMatchObject({
      id: 't0001',
      tool: 'alpha',
      test: 'rtt-test',
      status: 'succeeded',
      rawFiles: ['raw/t0001-a.txt'],
      sampleCount: 1,
      params: { file: 'a.txt' },
    });
    expect(samples[0]).toMatchObject({ runId: 'r1', sampleId: 'r1-1', trialId: 't0001', metric: 'Average Latency', value: 2, timestamp: Date.parse('2026-01-02T03:04:05Z') });
    // The user's labels win, even over the tool's `test`; the trial keeps the tool's.
    expect(samples[0]!.labels).toMatchObject({ tool: 'alpha', test: 'mine', count: 2, site: 'lab', imported: true, source_file: a, benchmark: 'imported-lab' });
    expect(samples[1]!.sampleId).toBe('r1-2');
    expect(readFileSync(join(runDir, 'samples.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    expect(events.map((e) => e.type)).toEqual([
      'run-started',
      'phase-started',
      'trial-started',
      'sample',
      'trial-finished',
      'trial-started',
      'sample',
      'trial-finished',
      'phase-finished',
      'published',
      'run-finished',
    ]);

    const store = await openStore(join(dir, 'nb.db'));
    try {
      expect(store.list().runs.map((r) => [r.runId, r.trials, r.samples])).toEqual([['r1', 2, 2]]);
    } finally {
      store.close();
    }
  });

  it('a file that does not parse is a failed trial naming file and line; the others are kept (exit 3)', async () => {
    const good = file('good.txt', 'rtt 1\n');
    const bad = file('bad.txt', 'rtt 1\nrtt oops\n');
    const outcome = await importFiles({ tool: 'alpha', files: [good, bad], registry, runsDir: join(dir, 'runs'), runId: 'r2', db: false });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.record.status).toBe('failed');
    expect(outcome.files[1]).toMatchObject({ status: 'failed', samples: 0, error: `${bad}:2: not a rtt line` });
    expect(readResults(join(dir, 'runs', 'r2')).run.trials[1]).toMatchObject({ status: 'failed', error: `${bad}:2: not a rtt line`, rawFiles: ['raw/t0002-bad.txt'] });
    expect(outcome.storedIn).toBeUndefined();
  });

  it('unreadable, empty, unknown and ambiguous files: one ImportError naming each, nothing written', async () => {
    const both = lineTool('gamma', 'rtt');
    const unknown = file('unknown.txt', 'hello\n');
    const empty = file('empty.txt', '');
    const attempt = importFiles({ tool: 'auto', files: [unknown, empty, join(dir, 'missing.txt'), dir], registry, runsDir: join(dir, 'runs'), db: join(dir, 'nb.db') });
    await expect(attempt).rejects.toBeInstanceOf(ImportError);
    const message = await attempt.catch((e: Error) => e.message);
    expect(message).toContain(`${unknown}: unrecognised format: no installed tool (alpha, beta) recognises it; pass --tool NAME`);
    expect(message).toContain(`${empty}: empty file`);
    expect(message).toContain(`${join(dir, 'missing.txt')}: cannot read (ENOENT)`);
    expect(message).toContain(`${dir}: not a file`);
    const ambiguous = importFiles({ tool: 'auto', files: [file('x.txt', 'rtt 1\n')], registry: staticRegistry([lineTool('alpha', 'rtt'), both]), runsDir: join(dir, 'runs') });
    await expect(ambiguous).rejects.toThrow(/x\.txt: ambiguous format: looks like output of alpha and gamma; pass --tool NAME/);
    await expect(importFiles({ tool: 'nosuch', files: [unknown], registry, runsDir: join(dir, 'runs') })).rejects.toThrow(
      'no tool plugin named nosuch is installed (installed: alpha, beta; or --tool auto)',
    );
    expect(readdirSync(dir).sort()).toEqual(['empty.txt', 'unknown.txt', 'x.txt']);
  });

  it('a store that refuses the run leaves the run folder complete and the store file untouched (exit 1)', async () => {
    const notOurs = file('other.db', 'SQLite format 3\u0000 but not really a database');
    const before = readFileSync(notOurs);
    const outcome = await importFiles({ tool: 'alpha', files: [file('a.txt', 'rtt 1\n')], registry, runsDir: join(dir, 'runs'), runId: 'r3', db: notOurs });
    expect(outcome.exitCode).toBe(1);
    expect(outcome.storedIn).toBeUndefined();
    const { run } = readResults(join(dir, 'runs', 'r3'));
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(/^results store: .*netbench results add .*r3/);
    expect(readFileSync(notOurs).equals(before)).toBe(true);
    expect(statSync(join(dir, 'runs', 'r3', 'raw', 't0001-a.txt')).size).toBe(6);
  });

  it('a run id in use is refused before anything is written', async () => {
    const a = file('a.txt', 'rtt 1\n');
    await importFiles({ tool: 'alpha', files: [a], registry, runsDir: join(dir, 'runs'), runId: 'r4', db: false });
    await expect(importFiles({ tool: 'alpha', files: [a], registry, runsDir: join(dir, 'runs'), runId: 'r4', db: false })).rejects.toThrow(/run folder .*r4 already exists/);
    expect(readResults(join(dir, 'runs', 'r4')).samples).toHaveLength(1);
  });

  it('records what the parsing tool declared of its metrics, so the imported trial reads as a measured one', async () => {
    const declaring = definePlugin<ToolPlugin<unknown>>({
      ...lineTool('gamma', 'owd'),
      metrics: { owd_mean: { role: 'latency', better: 'lower', statistic: 'mean' }, owd_lost: { role: 'loss', better: 'lower' } },
      parse: (raw) => [
        { metric: 'owd_mean', value: Number(raw.split(' ')[1]), unit: 'ms' },
        { metric: 'owd_lost', value: 2, unit: '%' },
      ],
    });
    const outcome = await importFiles({ tool: 'gamma', files: [file('g.txt', 'owd 4\n')], registry: staticRegistry([declaring]), runsDir: join(dir, 'runs'), db: false });
    const results = readResults(outcome.record.runDir);
    expect(results.run.toolMetrics?.['gamma']).toEqual(declaring.metrics);
    const [trial] = runShow('', results).trials;
    expect(trial?.summary).toEqual({ headline: { metric: 'owd_mean', value: 4, unit: 'ms' }, loss: { metric: 'owd_lost', value: 2, unit: '%' } });
  });
});
