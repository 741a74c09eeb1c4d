import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Sandbox } from './sandbox.js';

// Leftover checks are run-scoped: each names what one test's own run made (its run id in namespace and
// link names, its NETBENCH_HOME in a tool process's environment, its containers in a process's cgroup), so files can run side by side and
// beside other netbench work on the machine. A check that must see "nothing at all was created" runs
// the CLI in a sandbox (./sandbox.ts) and lists what is inside it.

const TOOLS = /^(netserver|netperf|iperf3|ping|sshd)\b/;

/** Network namespaces of a run (`nb-<runId>-*`), or of any netbench run. */
export function namespacesOf(runId = ''): string[] {
  const out = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith(`nb-${runId}`));
}

/** Every network namespace inside a sandbox, whatever its name: all that a command run there created. */
export function namespacesIn(sandbox: Sandbox): string[] {
  return sandbox
    .exec(['ip', 'netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter(Boolean);
}

/**
 * Links named after a run's tag (bridge and the veths' bridge ends), in the
 * root namespace (labs from before the hub) and in every lab's hub namespace
 * (`nb-<runId>-@hub`).
 */
export function linksOf(tag: string): string[] {
  const hubs = namespacesOf().filter((name) => name.endsWith('-@hub'));
  const listings = [undefined, ...hubs].map((netns) => {
    try {
      return execFileSync('ip', [...(netns ? ['-n', netns] : []), '-o', 'link', 'show'], { encoding: 'utf8' });
    } catch {
      return ''; // a hub deleted meanwhile
    }
  });
  return listings.flatMap((out) =>
    out
      .split('\n')
      .map((line) => line.split(': ')[1]?.split('@')[0] ?? '')
      .filter((name) => name.startsWith(`nb${tag}`)),
  );
}

/**
 * Tool processes (netserver, iperf3, netperf, ping, sshd) started by the runs
 * of one NETBENCH_HOME: local hosts' tools inherit the CLI's environment, so
 * theirs names the home, which no other test shares.
 */
export function toolProcessesOf(home: string, match: RegExp = TOOLS): string[] {
  const mark = `NETBENCH_HOME=${home}`;
  return matching(ps(), match).filter((line) => environ(Number.parseInt(line, 10)).includes(mark));
}

/** Tool processes inside a sandbox (its own pid namespace): all that a command run there left. */
export function toolProcessesIn(sandbox: Sandbox, match: RegExp = TOOLS): string[] {
  return matching(sandbox.exec(['ps', '-eo', 'pid=,args=']), match);
}

/** Tool processes inside the given Docker containers: the host sees each one's cgroup name its container's id. */
export function toolProcessesInContainers(ids: readonly string[], match: RegExp = TOOLS): string[] {
  return matching(ps(), match).filter((line) => {
    let cgroup = '';
    try {
      cgroup = readFileSync(`/proc/${Number.parseInt(line, 10)}/cgroup`, 'utf8');
    } catch {
      return false; // gone meanwhile
    }
    return ids.some((id) => cgroup.includes(id));
  });
}

function ps(): string {
  try {
    return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

function matching(out: string, match: RegExp): string[] {
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      const args = line.replace(/^\d+\s+/, '');
      const base = args.split(' ')[0]?.split('/').pop() ?? '';
      return match.test(`${base} ${args.split(' ').slice(1).join(' ')}`);
    });
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return []; // gone meanwhile
  }
}
