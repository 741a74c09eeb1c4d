import { definePlugin, z } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import { ALL_TEST_PLUGINS, TestResolver } from './__fixtures__/test-plugins.js';
import { specJsonSchema } from './spec-json-schema.js';

// JSON Schema is untyped JSON; the tests walk into it freely.
type Json = Record<string, any>;

describe('specJsonSchema', () => {
  test('merges the skeleton with one anyOf variant per plugin, discriminated by cloud/tool/type', async () => {
    const resolver = new TestResolver();
    const schema = (await specJsonSchema(resolver)) as Json;
    expect(resolver.imported.sort()).toEqual(['cloud:local', 'publisher:json', 'tool:iperf3', 'tool:netperf', 'tool:ping']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'hosts', 'benchmarks']);

    const hosts: Json[] = schema.properties.hosts.additionalProperties.anyOf;
    expect(hosts.map((h) => h.properties.cloud.const)).toEqual(['local', 'aws', 'gcp', 'azure', 'static']);
    const local = hosts[0]!;
    expect(local.additionalProperties).toBe(false);
    expect(Object.keys(local.properties)).toEqual(['cloud', 'reuse', 'zone', 'link']);
    expect(local.properties.link.anyOf).toBeUndefined(); // objects are not placeholders
    expect(local.properties.link.properties.rate.anyOf[1].pattern).toContain('\\$\\{');
    expect(hosts[2]).toMatchObject({ title: 'cloud gcp (not installed)', additionalProperties: true });

    const benchmarks: Json[] = schema.properties.benchmarks.items.anyOf;
    expect(benchmarks.map((b) => b.properties.tool.const)).toEqual(['netperf', 'iperf3', 'ping', 'iperf', 'fping']);
    const netperf = benchmarks[0]!;
    // client/server or flows: the either-or is checked by the loader, not the editor schema.
    expect(netperf.required).toEqual(['tool']);
    expect(Object.keys(netperf.properties)).toEqual(['tool', 'name', 'client', 'server', 'ip', 'flows', 'tests', 'streams', 'duration']);
    // `duration: ${d}` must not be flagged by an editor.
    expect(netperf.properties.duration.anyOf.map((s: Json) => s.type)).toEqual(['number', 'string']);
    expect(netperf.properties.duration.default).toBe(10);

    const publishers: Json[] = schema.properties.publish.items.anyOf;
    expect(publishers.map((p) => p.properties.type.const)).toEqual(['json']);
    expect(schema.properties.options.properties.concurrency.default).toBe(1);
  });

  test('names every plugin whose schema cannot be converted', async () => {
    const broken = definePlugin({
      kind: 'tool',
      name: 'broken',
      schema: z.strictObject({ since: z.date() }),
      trials: () => [],
      check: async () => ({ version: '0', features: {} }),
      run: async () => ({ samples: [] }),
      parse: () => [],
    });
    const alsoBroken = definePlugin({ kind: 'publisher', name: 'odd', schema: z.strictObject({ n: z.bigint() }), publish: async () => ({ count: 0 }) });
    const error = (await specJsonSchema(new TestResolver([...ALL_TEST_PLUGINS, broken, alsoBroken])).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^cannot build the spec JSON Schema; plugin schemas failed to convert:\n {2}tool 'broken': .+\n {2}publisher 'odd': .+$/);
  });
});
