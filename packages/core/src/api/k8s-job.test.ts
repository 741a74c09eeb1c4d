import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { shardJobManifest } from './k8s-job.js';

/**
 * The kubelet's expansion of a container's command, args and env values
 * (k8s.io/kubernetes third_party/forked/golang/expansion Expand): `$$` is a
 * `$`, `$(NAME)` is NAME's value when the pod defines it, anything else stays.
 */
function kubeletExpand(input: string, vars: Record<string, string>): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor += 1) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let advance = 1;
    if (rest[0] === '$') out += '$';
    else if (rest[0] === '(') {
      const close = rest.indexOf(')');
      if (close === -1) out += '$(';
      else {
        const name = rest.slice(1, close);
        out += Object.hasOwn(vars, name) ? vars[name] : `$(${name})`;
        advance = close + 1;
      }
    } else out += `$${rest[0]}`;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

const podEnv = { JOB_COMPLETION_INDEX: '2', NETBENCH_POSTGRES_URL: 'postgres://netbench:s3cret@db/bench', NETBENCH_HOME: '/var/lib/netbench' };

describe('the Indexed Job manifest', () => {
  it.each(['$(NETBENCH_POSTGRES_URL)', '$$(NETBENCH_POSTGRES_URL)', 'a$(JOB_COMPLETION_INDEX)b', 'cost-$5', 'x$', '$(unclosed', '$$'])(
    'hands the study %s to netbench run exactly as given, whatever the kubelet expands',
    (study) => {
      const [, job] = parseAllDocuments(shardJobManifest({ name: 'n', specText: 'name: n\n', count: 4, study })).map((d) => d.toJS() as { spec: { template: { spec: { containers: { args: string[]; command?: string[]; env: { name: string; value?: string }[] }[] } } } });
      const container = job!.spec.template.spec.containers[0]!;
      const args = container.args.map((a) => kubeletExpand(a, podEnv));
      expect(args).toEqual(['run', '/etc/netbench/spec.yaml', '--shard', '2/4', '--study', study, '--progress', 'plain']);
      expect(args.join(' ')).not.toContain('s3cret');
      expect(container.command).toBeUndefined();
      // The only literal env value is netbench's own.
      expect(container.env.filter((e) => e.value !== undefined)).toEqual([{ name: 'NETBENCH_HOME', value: '/var/lib/netbench' }]);
    },
  );
});
