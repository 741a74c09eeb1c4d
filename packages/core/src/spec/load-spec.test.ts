import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { TestResolver } from './__fixtures__/test-plugins.js';
import { loadSpec } from './load-spec.js';

const QUICKSTART = `name: quickstart
description: two namespaces
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - tool: netperf
    client: client
    server: server
    tests: [TCP_RR, TCP_STREAM]
    duration: 5
options:
  runsDir: ./runs
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nbt-spec-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadSpec', () => {
  test('applies core defaults and imports only the plugins the spec names', async () => {
    const resolver = new TestResolver();
    const { spec, warnings } = await loadSpec({ text: QUICKSTART }, resolver);
    expect(warnings).toEqual([]);
    expect(spec.name).toBe('quickstart');
    expect(spec.description).toBe('two namespaces');
    expect(spec.hosts.client).toEqual({ cloud: 'local', reuse: true });
    expect(spec.benchmarks[0]).toEqual({ tool: 'netperf', client: 'client', server: 'server', ip: 'internal', tests: ['TCP_RR', 'TCP_STREAM'], duration: 5 });
    expect(spec.publish).toEqual([{ type: 'json' }]);
    expect(spec.options).toMatchObject({ concurrency: 1, trialTimeout: 120, retries: 1, provisionTimeout: 600, teardownTimeout: 300, install: true });
    expect(spec.matrix).toBeUndefined();
    expect([...new Set(resolver.imported)].sort()).toEqual(['cloud:local', 'tool:netperf']);
  });

  test('reads a file; runsDir is relative to the file; source is kept', async () => {
    const file = join(dir, 'quick.yaml');
    await writeFile(file, QUICKSTART);
    const { spec } = await loadSpec({ file }, new TestResolver());
    expect(spec.options.runsDir).toBe(join(dir, 'runs'));
    expect(spec.source).toEqual({ file, text: QUICKSTART });
  });

  test('a missing file is a NetbenchError naming the file, not a SpecError', async () => {
    const file = join(dir, 'nope.yaml');
    const error = await loadSpec({ file }, new TestResolver()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetbenchError);
    expect(error).not.toBeInstanceOf(SpecError);
    expect((error as Error).message).toBe(`spec file not found: ${file}`);
  });

  test('an official plugin that is not installed is a warning and its block is not checked', async () => {
    const text = QUICKSTART.replace('client: { cloud: local }', 'client: { cloud: gcp, zone: us-west1-a, anything: [1, 2] }').replace('tool: netperf', 'tool: fping');
    const { spec, warnings } = await loadSpec({ text }, new TestResolver());
    expect(warnings).toEqual([
      "cloud 'gcp' needs @netbench/plugin-gcp, which is not installed; its fields were not checked",
      "tool 'fping' needs @netbench/plugin-fping, which is not installed; its fields were not checked",
    ]);
    expect(spec.hosts.client).toEqual({ cloud: 'gcp', reuse: true, zone: 'us-west1-a', anything: [1, 2] });
  });

  test('a host no benchmark uses is a warning', async () => {
    const text = QUICKSTART.replace('  server: { cloud: local }\n', '  server: { cloud: local }\n  spare: { cloud: local }\n');
    const { warnings } = await loadSpec({ text }, new TestResolver());
    expect(warnings).toEqual(["host 'spare' is not used by any benchmark; it will not be provisioned"]);
  });

  test('matrix.filter is normalised to filters, a string or a list', async () => {
    const base = `${QUICKSTART}matrix:\n  axes: { a: [1, 2, 3], b: [x, y] }\n`;
    const one = await loadSpec({ text: `${base}  filter: a > 1\n` }, new TestResolver());
    expect(one.spec.matrix).toEqual({ axes: { a: [1, 2, 3], b: ['x', 'y'] }, zip: [], filters: ['a > 1'] });
    const list = await loadSpec({ text: `${base}  filter: [a > 1, 'b == "x"']\n` }, new TestResolver());
    expect(list.spec.matrix?.filters).toEqual(['a > 1', 'b == "x"']);
  });
});

describe('--set overrides', () => {
  test('set scalars, flow values and missing maps before validation', async () => {
    const sets = ['options.concurrency=2', 'benchmarks.0.duration=2', 'hosts.server.link.rate=100mbit', 'benchmarks.0.tests=[UDP_RR]', 'description=changed here'];
    const { spec } = await loadSpec({ text: QUICKSTART }, new TestResolver(), { sets });
    expect(spec.options.concurrency).toBe(2);
    expect(spec.benchmarks[0]?.duration).toBe(2);
    expect(spec.benchmarks[0]?.tests).toEqual(['UDP_RR']);
    expect(spec.hosts.server).toEqual({ cloud: 'local', reuse: true, link: { rate: '100mbit' } });
    expect(spec.description).toBe('changed here');
  });

  test('the stored text is the spec as run: overrides applied, paths named, comments kept, resume-stable', async () => {
    const sets = ['hosts.server.link.rate=100mbit', 'benchmarks.0.duration=2'];
    const { spec } = await loadSpec({ text: `# my lab\n${QUICKSTART}` }, new TestResolver(), { sets });
    const text = spec.source!.text;
    expect(text.split('\n')[0]).toBe('# As run: the file with --set hosts.server.link.rate, benchmarks.0.duration applied (netbench).');
    expect(text).toContain('# my lab');
    expect(text).toMatch(/rate: 100mbit/);
    expect(text).toMatch(/duration: 2\n/);
    // Planned again from that text with the same overrides (resume): the same text, one such line.
    const again = await loadSpec({ text }, new TestResolver(), { sets });
    expect(again.spec.source!.text).toBe(text);
    // Without overrides, the text as written.
    expect((await loadSpec({ text: QUICKSTART }, new TestResolver())).spec.source!.text).toBe(QUICKSTART);
  });

  test('a bad path is a clear error', async () => {
    const error = (await loadSpec({ text: QUICKSTART }, new TestResolver(), {
      sets: ['benchmarks.3.duration=2', 'name.first=x', 'novalue', 'options..x=1'],
    }).catch((e: unknown) => e)) as SpecError;
    expect(error).toBeInstanceOf(SpecError);
    expect(error.message.split('\n')).toEqual([
      '--set  benchmarks.3.duration=2  benchmarks has no item 3 (it has 1 item)',
      "--set  name.first=x  name is a single value, not a map; cannot set 'first' in it",
      '--set  novalue  expected key=value, e.g. options.concurrency=2',
      "--set  options..x=1  'options..x' is not a valid path (empty segment)",
    ]);
  });

  test('a set value that fails validation says it came from --set', async () => {
    const error = (await loadSpec({ text: QUICKSTART }, new TestResolver(), { sets: ['benchmarks.0.duration=soon', 'options.colour=red'] }).catch((e: unknown) => e)) as SpecError;
    expect(error.message.split('\n')).toEqual([
      // The replaced value has no place in the file: the key is shown.
      '<spec>:11:5  benchmarks.0.duration  expected number, got string (value from --set)',
      "<spec>:13:3  options.colour  unknown field 'colour' (value from --set)",
    ]);
  });
});
