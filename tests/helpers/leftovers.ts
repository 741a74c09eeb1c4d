import { execFileSync } from 'node:child_process';

/** Network namespaces of a run (`nb-<runId>-*`), or of any netbench run. */
export function namespacesOf(runId = ''): string[] {
  const out = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  return out.split('\n').map((line) => line.split(' ')[0] ?? '').filter((name) => name.startsWith(`nb-${runId}`));
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
  return listings.flatMap((out) => out.split('\n').map((line) => line.split(': ')[1]?.split('@')[0] ?? '').filter((name) => name.startsWith(`nb${tag}`)));
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
