import type { AnyPlugin } from '@netbench/plugin-api';
import { describe, expect, test } from 'vitest';
import flowTool from '../engine/flows/__fixtures__/flow-tool.js';
import { SpecError } from '../issues/spec-error.js';
import { createPlan } from '../plan/create-plan.js';
import { staticRegistry } from '../registry/static-registry.js';
import { labCloud, pingTool } from './__fixtures__/test-plugins.js';
import { loadSpec } from './load-spec.js';

const registry = staticRegistry([labCloud, flowTool, pingTool] as AnyPlugin[]);
const HOSTS = 'name: t\nhosts:\n  a: { cloud: local }\n  b: { cloud: local }\n  c: { cloud: local }\n';
const BENCH = 'benchmarks:\n  - { tool: ping, client: a, server: b, ip: tunnel:wg }\n';

async function problems(text: string): Promise<string[]> {
  try {
    await loadSpec({ text, file: 'spec.yaml' }, registry);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).message.split('\n');
  }
  throw new Error('the spec loaded, but it should have failed');
}

describe('tunnels in a spec', () => {
  test('a tunnel and a benchmark through it load and plan; the trial targets the tunnel', async () => {
    const { spec } = await loadSpec({ text: `${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, b] }\n${BENCH}`, file: 'spec.yaml' }, registry);
    expect(spec.tunnels).toEqual([{ name: 'wg', type: 'wireguard', between: ['a', 'b'], implementation: 'auto' }]);
    const plan = await createPlan(spec, registry);
    expect(plan.trials.length).toBeGreaterThan(0);
    expect(plan.trials.every((t) => t.ip === 'tunnel:wg')).toBe(true);
  });

  test('fields of an entry are checked where they are written', async () => {
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, b], cipher: aes128 }\n${BENCH}`)).toEqual([
      'spec.yaml:7:59  tunnels.0.cipher  wireguard has one cipher, chacha20poly1305',
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: gre, between: [a, a] }\n${BENCH}`)).toEqual([
      'spec.yaml:7:23  tunnels.0.type  expected one of ipsec, wireguard, openvpn',
      "spec.yaml:9:45  benchmarks.0.ip  tunnel 'wg' joins a and a, not a and b",
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: openvpn, between: [a, b], ike: 2, cipher: BF-CBC }\n${BENCH}`)).toEqual([
      'spec.yaml:7:54  tunnels.0.ike  only ipsec tunnels have IKE (this one is openvpn)',
      'spec.yaml:7:65  tunnels.0.cipher  openvpn cipher must be one of AES-128-GCM, AES-256-GCM, CHACHA20-POLY1305',
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: ipsec, between: [a, a], cipher: 'aes; rm -rf /' }\n${BENCH}`)).toEqual([
      "spec.yaml:7:39  tunnels.0.between  a tunnel joins two different hosts (both are 'a')",
      'spec.yaml:7:55  tunnels.0.cipher  an ESP proposal such as aes128-sha256 or aes256gcm16 (lower case, dash separated)',
      "spec.yaml:9:45  benchmarks.0.ip  tunnel 'wg' joins a and a, not a and b",
    ]);
  });

  test('references: unknown hosts and tunnels, a tunnel between other hosts, a duplicate name, a bad ip', async () => {
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, bb] }\n${BENCH}`)).toEqual([
      "spec.yaml:7:47  tunnels.0.between.1  unknown host 'bb' (did you mean 'b'?); hosts: a, b, c",
      "spec.yaml:9:45  benchmarks.0.ip  tunnel 'wg' joins a and bb, not a and b",
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wireguard, type: wireguard, between: [a, b] }\n${BENCH}`)).toEqual([
      "spec.yaml:9:45  benchmarks.0.ip  unknown tunnel 'wg'; tunnels: wireguard",
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, c] }\n${BENCH}`)).toEqual([
      "spec.yaml:9:45  benchmarks.0.ip  tunnel 'wg' joins a and c, not a and b",
    ]);
    expect(await problems(`${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, b] }\n  - { name: wg, type: openvpn, between: [a, b] }\n${BENCH}`)).toEqual([
      "spec.yaml:8:13  tunnels.1.name  tunnel 'wg' is defined twice",
    ]);
    expect(await problems(`${HOSTS}benchmarks:\n  - { tool: ping, client: a, server: b, ip: 'tunnel:' }\n`)).toEqual([
      'spec.yaml:7:45  benchmarks.0.ip  expected internal, external or tunnel:NAME',
    ]);
  });

  test('a tunnel address with flows: is refused where it is written (docs/tunnels.md)', async () => {
    const flows = `${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, b] }\nbenchmarks:\n  - { tool: flow-echo, ip: tunnel:wg, flows: { topology: pairs, pairs: [{ client: a, server: b }] } }\n`;
    expect(await problems(flows)).toEqual([
      'spec.yaml:9:28  benchmarks.0.ip  ip: tunnel:wg cannot be used with flows: (not supported yet); measure through the tunnel with client and server instead',
    ]);
  });

  test('two tunnels on one host may not bind the same UDP port (ipsec: IKE and NAT-T)', async () => {
    const twoIpsec = `${HOSTS}tunnels:\n  - { name: wg, type: ipsec, between: [a, b] }\n  - { name: i2, type: ipsec, between: [b, c] }\n  - { name: i3, type: ipsec, between: [a, c], port: 4499 }\n${BENCH}`;
    expect(await problems(twoIpsec)).toEqual([
      "spec.yaml:8:5  tunnels.1  UDP 500 on b is taken by tunnel 'wg'; UDP 4500 on b is taken by tunnel 'wg'; set another port for this tunnel",
      "spec.yaml:9:53  tunnels.2.port  UDP 4500 on a is taken by tunnel 'wg'; UDP 4500 on c is taken by tunnel 'i2'; set another port for this tunnel",
    ]);
    const twoWg = `${HOSTS}tunnels:\n  - { name: wg, type: wireguard, between: [a, b] }\n  - { name: wg2, type: wireguard, between: [a, b], port: 51820 }\n${BENCH}`;
    expect(await problems(twoWg)).toEqual([
      "spec.yaml:8:58  tunnels.1.port  UDP 51820 on a is taken by tunnel 'wg'; UDP 51820 on b is taken by tunnel 'wg'; set another port for this tunnel",
    ]);
    const distinct = `${HOSTS}tunnels:\n  - { name: wg, type: ipsec, between: [a, b] }\n  - { name: i2, type: ipsec, between: [a, b], port: 1500 }\n  - { name: w, type: wireguard, between: [a, b] }\n  - { name: o, type: openvpn, between: [a, b] }\n${BENCH}`;
    const { spec } = await loadSpec({ text: distinct, file: 'spec.yaml' }, registry);
    expect(spec.tunnels?.map((t) => t.port)).toEqual([undefined, 1500, undefined, undefined]);
  });
});
