import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';

// scripts/dockerd.sh stop removes what a stopped dockerd leaves behind: its iptables chains, the rules
// jumping to them, the MASQUERADE of its subnet and docker0. Played in a namespace of the test's own
// (Docker's leftovers made there by hand), so the machine's own dockerd and rules are never touched.
const ns = `nbt-dockerd-${randomBytes(3).toString('hex')}`;
const inNs = (...argv: string[]) => execFileSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8' });
const ipt = (...args: string[]) => inNs('iptables', '-w', ...args);

beforeAll(() => {
  execFileSync('ip', ['netns', 'add', ns]);
  ipt('-N', 'DOCKER');
  ipt('-N', 'DOCKER-USER');
  ipt('-N', 'DOCKER-ISOLATION-STAGE-1');
  ipt('-A', 'DOCKER-USER', '-j', 'RETURN');
  ipt('-A', 'FORWARD', '-j', 'DOCKER-USER');
  ipt('-A', 'FORWARD', '-j', 'DOCKER-ISOLATION-STAGE-1');
  ipt('-A', 'FORWARD', '-o', 'docker0', '-j', 'DOCKER');
  ipt('-A', 'FORWARD', '-i', 'lo', '-j', 'ACCEPT');
  ipt('-t', 'nat', '-N', 'DOCKER');
  ipt('-t', 'nat', '-A', 'PREROUTING', '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', 'DOCKER');
  ipt('-t', 'nat', '-A', 'POSTROUTING', '-s', '172.17.0.0/16', '!', '-o', 'docker0', '-j', 'MASQUERADE');
  ipt('-t', 'nat', '-A', 'POSTROUTING', '-s', '10.99.0.0/16', '-j', 'MASQUERADE');
  inNs('ip', 'link', 'add', 'docker0', 'type', 'bridge');
});
afterAll(() => execFileSync('ip', ['netns', 'delete', ns]));

it("removes Docker's chains, the rules reaching them and docker0, and nothing else", () => {
  inNs('bash', '-c', 'source scripts/dockerd.sh && remove_docker_net');
  const filter = ipt('-S');
  const nat = ipt('-t', 'nat', '-S');
  expect(`${filter}\n${nat}`).not.toMatch(/DOCKER|docker0/);
  expect(filter).toContain('-A FORWARD -i lo -j ACCEPT');
  expect(nat).toContain('-A POSTROUTING -s 10.99.0.0/16 -j MASQUERADE');
  expect(() => inNs('ip', 'link', 'show', 'docker0')).toThrow();
  // Again: nothing left to remove is no error.
  inNs('bash', '-c', 'source scripts/dockerd.sh && remove_docker_net');
});
