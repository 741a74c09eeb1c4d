import { describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { TestResolver } from './__fixtures__/test-plugins.js';
import { loadSpec } from './load-spec.js';

/** The formatted problem lines of a spec that must fail. */
async function problems(text: string, sets?: string[]): Promise<string[]> {
  try {
    await loadSpec({ text, file: 'spec.yaml' }, new TestResolver(), { sets });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    const specError = error as SpecError;
    expect(specError.exitCode).toBe(2);
    expect(specError.message.split('\n')).toHaveLength(specError.issues.length);
    return specError.message.split('\n');
  }
  throw new Error('the spec loaded, but it should have failed');
}

const GOOD = `name: quickstart
hosts:
  client: { cloud: local }
  server: { cloud: local, link: { rate: 200mbit } }
benchmarks:
  - tool: netperf
    client: client
    server: server
    tests: [TCP_RR, TCP_STREAM]
`;

describe('spec errors point at the offending node', () => {
  test('broken YAML reports every syntax error with line:col', async () => {
    const lines = await problems('name: x\nhosts: [a, b\nbenchmarks: {tool: x\n');
    expect(lines).toEqual([
      'spec.yaml:3:1  Flow sequence in block collection must be sufficiently indented and end with a ]',
      'spec.yaml:4:1  Flow map in block collection must be sufficiently indented and end with a }',
    ]);
  });

  test('an unquoted ${var} in a flow mapping gets a hint', async () => {
    const text = GOOD.replace('client: { cloud: local }', 'client: { cloud: local, zone: ${zone} }');
    const lines = await problems(text);
    expect(lines[0]).toBe('spec.yaml:3:34  Unexpected flow-map-start at node end (inside { } or [ ], quote a ${var} value: "${var}")');
    expect(lines.slice(1).some((line) => line.includes('quote'))).toBe(false);
  });

  test('duplicate keys are syntax errors', async () => {
    expect(await problems(`${GOOD}name: again\n`)).toEqual(['spec.yaml:10:1  Map keys must be unique']);
  });

  test('unknown keys: top level, options, plugin block — at the key, with a suggestion', async () => {
    const lines = await problems(`${GOOD}    durration: 5\noptions:\n  concurency: 2\nbenchmark: []\n`);
    expect(lines).toEqual([
      "spec.yaml:10:5  benchmarks.0.durration  unknown field 'durration' (did you mean 'duration'?)",
      "spec.yaml:12:3  options.concurency  unknown field 'concurency' (did you mean 'concurrency'?)",
      "spec.yaml:13:1  benchmark  unknown field 'benchmark' (did you mean 'benchmarks'?)",
    ]);
  });

  test('unknown key nested in a cloud block', async () => {
    const text = GOOD.replace('link: { rate: 200mbit }', 'link: { rate: 200mbit, burts: 1 }');
    expect(await problems(text)).toEqual(["spec.yaml:4:50  hosts.server.link.burts  unknown field 'burts'"]);
  });

  test('wrong types in core and plugin fields', async () => {
    const lines = await problems(`${GOOD}    duration: soon\noptions: { concurrency: two, install: 1 }\n`);
    expect(lines).toEqual([
      'spec.yaml:10:15  benchmarks.0.duration  expected number, got string',
      'spec.yaml:11:25  options.concurrency  expected number, got string',
      'spec.yaml:11:39  options.install  expected boolean, got number',
    ]);
  });

  test('missing required fields point at the parent mapping', async () => {
    const lines = await problems('hosts:\n  client: { reuse: false }\n  server: { cloud: local }\nbenchmarks:\n  - tool: ping\n    server: server\n');
    expect(lines).toEqual([
      "spec.yaml:1:1  name  missing required field 'name' (expected string)",
      "spec.yaml:2:11  hosts.client.cloud  missing required field 'cloud' (expected string)",
      "spec.yaml:5:5  benchmarks.0.client  missing required field 'client' (expected string; or give flows: one-to-many, mesh, bidirectional or pairs)",
    ]);
  });

  test('unknown tool, cloud and publisher list the installed ones with a suggestion', async () => {
    const text = GOOD.replace('tool: netperf', 'tool: netperff').replace('client: { cloud: local }', 'client: { cloud: lokal }');
    const lines = await problems(`${text}publish:\n  - type: jsonn\n`);
    expect(lines).toEqual([
      "spec.yaml:3:20  hosts.client.cloud  unknown cloud 'lokal' (did you mean 'local'?); installed clouds: local",
      "spec.yaml:6:11  benchmarks.0.tool  unknown tool 'netperff' (did you mean 'netperf'?); installed tools: iperf3, netperf, ping",
      "spec.yaml:11:11  publish.0.type  unknown publisher 'jsonn' (did you mean 'json'?); installed publishers: json",
    ]);
  });

  test('unknown host references and client equal to server', async () => {
    const lines = await problems(`${GOOD}  - tool: ping\n    client: sever\n    server: sever\n  - tool: ping\n    client: client\n    server: client\n`);
    expect(lines).toEqual([
      "spec.yaml:11:13  benchmarks.1.client  unknown host 'sever' (did you mean 'server'?); hosts: client, server",
      "spec.yaml:12:13  benchmarks.1.server  unknown host 'sever' (did you mean 'server'?); hosts: client, server",
      "spec.yaml:12:13  benchmarks.1.server  client and server must be different hosts (both are 'sever')",
      "spec.yaml:15:13  benchmarks.2.server  client and server must be different hosts (both are 'client')",
    ]);
  });

  test('undefined ${var} at the scalar, with the defined variables', async () => {
    const text = GOOD.replace('client: { cloud: local }', 'client: { cloud: local, zone: "lab-${zon}" }');
    const lines = await problems(`${text}    duration: \${duration}\nmatrix:\n  axes: { zone: [a, b] }\n`);
    expect(lines).toEqual([
      "spec.yaml:3:33  hosts.client.zone  undefined matrix variable 'zon' (did you mean 'zone'?); matrix variables: zone",
      "spec.yaml:10:15  benchmarks.0.duration  undefined matrix variable 'duration'; matrix variables: zone",
    ]);
  });

  test('bad CEL filter, at the filter, with the CEL message', async () => {
    const lines = await problems(`${GOOD}matrix:\n  axes: { zone: [a, b] }\n  filter: "zone ==="\n`);
    expect(lines).toEqual(['spec.yaml:12:11  matrix.filter  invalid filter: Unexpected character: = (at character 8)']);
  });

  test('a filter of the wrong type, and an unknown variable in a filter list', async () => {
    const lines = await problems(`${GOOD}matrix:\n  axes: { n: [1, 2] }\n  filter:\n    - n + 1\n    - "m > 1"\n`);
    expect(lines[0]).toBe('spec.yaml:13:7  matrix.filter.0  filter must be a boolean expression, but it gives int');
    expect(lines[1]).toMatch(/^spec\.yaml:14:7 {2}matrix\.filter\.1 {2}invalid filter: Unknown variable: m/);
  });

  test('a filter that drops every cell', async () => {
    const lines = await problems(`${GOOD}matrix:\n  axes: { streams: [1, 4] }\n  filter: streams > 4\n`);
    expect(lines).toEqual(['spec.yaml:12:11  matrix.filter  the filter drops every one of the 2 matrix cells']);
  });

  test('a zip group of unequal lengths names the group', async () => {
    const lines = await problems(`${GOOD}matrix:\n  zip:\n    - { region: [r1, r2], zone2: [z1] }\n`);
    expect(lines).toEqual(['spec.yaml:12:7  matrix.zip.0  zip group 0 needs lists of equal length: region has 2, zone2 has 1']);
  });

  test('a value that is wrong only for some matrix cells names the first such cell', async () => {
    const lines = await problems(`${GOOD}    duration: \${d}\nmatrix:\n  axes: { d: [5, -1, -2] }\n`);
    expect(lines).toEqual(['spec.yaml:10:15  benchmarks.0.duration  number must be >0 (with d=-1)']);
  });

  test('many problems in one file are all reported, in file order', async () => {
    const text = `name: "bad name"
hosts:
  client: { cloud: local, zone: 7 }
  server: { cloud: nope }
benchmarks:
  - tool: netperf
    client: client
    server: servr
    tests: [TCP_RR, TCP_XX]
    streams: \${streams}
matrix:
  axes: { zone: [a, b] }
  filter: zone == 1
options: { retries: -1 }
`;
    const lines = await problems(text);
    expect(lines).toEqual([
      'spec.yaml:1:7  name  use letters, digits, - and _ only',
      'spec.yaml:3:33  hosts.client.zone  expected string, got number',
      "spec.yaml:4:20  hosts.server.cloud  unknown cloud 'nope'; installed clouds: local; a third-party one installs with `netbench plugins add netbench-plugin-nope`",
      "spec.yaml:8:13  benchmarks.0.server  unknown host 'servr' (did you mean 'server'?); hosts: client, server",
      'spec.yaml:9:21  benchmarks.0.tests.1  expected one of TCP_RR, TCP_CRR, TCP_STREAM, TCP_MAERTS, UDP_RR, UDP_STREAM',
      "spec.yaml:10:14  benchmarks.0.streams  undefined matrix variable 'streams'; matrix variables: zone",
      expect.stringMatching(/^spec\.yaml:13:11 {2}matrix\.filter {2}invalid filter: no such overload: string == int/),
      'spec.yaml:14:21  options.retries  number must be >=0',
    ]);
  });

  test('an empty spec and a spec that is not a mapping', async () => {
    expect(await problems('')).toEqual(['spec.yaml:1:1  (spec)  the spec is empty']);
    expect(await problems('- a\n- b\n')).toEqual(['spec.yaml:1:1  (spec)  the spec must be a mapping with name, hosts and benchmarks']);
  });
});
