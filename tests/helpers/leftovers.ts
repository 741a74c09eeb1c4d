import { execFileSync } from 'node:child_process';

/** Network namespaces of a run (`nb-<runId>-*`), or of any netbench run. */
export function namespacesOf(runId = ''): string[] {
  const out = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  return out.split('\n').map((line) => line.split(' ')[0] ?? '').filter((name) => name.startsWith(`nb-${runId}`));
}

/** Links in the root namespace named after a run's tag (bridge and host-side veths). */
export function linksOf(tag: string): string[] {
  const out = execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });
  return out.split('\n').map((line) => line.split(': ')[1]?.split('@')[0] ?? '').filter((name) => name.startsWith(`nb${tag}`));
}

/** Tool processes (netserver, iperf3, netperf, ping, sshd) whose command line mentions the given text. */
export function toolProcesses(match: RegExp = /^(netserver|netperf|iperf3|ping|sshd)\b/): string[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out.split('\n').map((line) => line.trim()).filter((line) => {
    const args = line.replace(/^\d+\s+/, '');
    const base = args.split(' ')[0]?.split('/').pop() ?? '';
    return match.test(`${base} ${args.split(' ').slice(1).join(' ')}`);
  });
}
