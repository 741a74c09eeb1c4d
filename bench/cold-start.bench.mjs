import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, line, median, tempDir } from './lib.mjs';

/** `netbench --version` cold start, and `netbench plan` of a 10,000-trial matrix. */
export default async function coldStart() {
  cli(['--version']); // warm the file cache once; every timed run is still a fresh process
  const version = Array.from({ length: 15 }, () => cli(['--version']).ms);
  line('netbench --version, median of 15', `${median(version).toFixed(0)} ms`, '≤ 300 ms');

  const dir = tempDir('netbench-bench-plan-');
  const spec = join(dir, 'spec.yaml');
  const a = Array.from({ length: 100 }, (_, i) => `a${i}`);
  const b = Array.from({ length: 100 }, (_, i) => i + 1);
  writeFileSync(
    spec,
    [
      'name: ten-thousand',
      'hosts:',
      '  client: { cloud: local }',
      '  server: { cloud: local }',
      'benchmarks:',
      '  - tool: ping',
      '    client: client',
      '    server: server',
      '    direction: forward',
      '    count: ${count}',
      '    name: ${label}',
      'matrix:',
      `  axes: { label: [${a.join(', ')}], count: [${b.join(', ')}] }`,
      '',
    ].join('\n'),
  );
  const runs = Array.from({ length: 5 }, () => cli(['plan', spec, '--json']));
  const trials = JSON.parse(runs[0].stdout).trials.length;
  line(`netbench plan --json of ${trials.toLocaleString('en-US')} trials, median of 5`, `${median(runs.map((r) => r.ms)).toFixed(0)} ms`, '≤ 1000 ms');
}
