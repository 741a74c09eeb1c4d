import { type Files, pluginConst, readme, type ScaffoldInput } from './common-files.js';

// Real output of `ping -c 5 -i 0.2 -q 127.0.0.1` (iputils 20221126), the tool the template wraps.
const FIXTURE = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.

--- 127.0.0.1 ping statistics ---
5 packets transmitted, 5 received, 0% packet loss, time 836ms
rtt min/avg/max/mdev = 0.039/0.051/0.071/0.011 ms
`;

/** A tool plugin wrapping a command-line tool (`ping -q` as the worked example). */
export function toolFiles(input: ScaffoldInput): Files {
  return {
    'src/schema.ts': `import { z } from '@netbench/plugin-api';

/** The benchmark block of \`tool: ${input.name}\` (besides tool, name, client, server, ip). Strict: unknown fields are errors. */
export const schema = z.strictObject({
  count: z.int().min(1).max(100_000).default(10).describe('Requests per trial.'),
  interval: z.number().min(0.2).max(60).default(0.2).describe('Seconds between requests.'),
});

export type Params = z.output<typeof schema>;
`,
    'src/parse.ts': `import { ParseError, type SampleInput } from '@netbench/plugin-api';
import type { ParseOptions } from '@netbench/plugin-api';

const SUMMARY_RE = /^rtt min\\/avg\\/max\\/mdev = ([\\d.]+)\\/([\\d.]+)\\/([\\d.]+)\\/([\\d.]+) ms$/m;
const PACKETS_RE = /^(\\d+) packets transmitted, (\\d+) received/m;

/**
 * Pure: the tool's raw output to samples. \`netbench import\` reuses it on
 * files measured elsewhere, so it reads only the text and throws a
 * ParseError (naming the source) on anything else.
 */
export function parse(raw: string, options: ParseOptions = {}): SampleInput[] {
  const packets = PACKETS_RE.exec(raw);
  if (!packets) throw new ParseError('no "packets transmitted" line: not ping -q output', options.source);
  const sent = Number(packets[1]);
  const received = Number(packets[2]);
  const samples: SampleInput[] = [{ metric: 'packet_loss', value: sent === 0 ? 0 : (100 * (sent - received)) / sent, unit: 'percent' }];
  const rtt = SUMMARY_RE.exec(raw);
  if (rtt) {
    const [min, avg, max, mdev] = rtt.slice(1).map(Number) as [number, number, number, number];
    samples.push(
      { metric: 'latency_min', value: min, unit: 'ms' },
      { metric: 'latency_avg', value: avg, unit: 'ms' },
      { metric: 'latency_max', value: max, unit: 'ms' },
      { metric: 'latency_stddev', value: mdev, unit: 'ms' },
    );
  } else if (received > 0) {
    throw new ParseError('replies were received but there is no rtt summary line', options.source);
  }
  return samples;
}
`,
    // One entry convention: the plugin is made in src/plugin.ts; src/index.ts default-exports it.
    'src/index.ts': `export { ${pluginConst(input.name)} as default } from './plugin.js';
`,
    'src/plugin.ts': `import { definePlugin } from '@netbench/plugin-api';
import { RetryableError, ToolMissingError } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';
import { parse } from './parse.js';
import { schema } from './schema.js';

/**
 * \`tool: ${input.name}\`. The engine calls trials() while planning, check()
 * (and install()) on every host while preparing, run() per trial, and
 * parse() from run (and from \`netbench import\`). Every command is an argv
 * array: a spec value never reaches a shell.
 */
export const ${pluginConst(input.name)} = definePlugin({
  kind: 'tool',
  name: '${input.name}',
  version: '0.1.0',
  description: 'ICMP round trips with ping -q (replace with your tool)',
  schema,
  // Headline metrics: what charts, the report's results cell and \`netbench compare\` show for this tool.
  metrics: {
    latency_avg: { role: 'latency', better: 'lower', primary: true },
    packet_loss: { role: 'loss', better: 'lower' },
  },
  // Pure: one trial per distinct measurement; params become sample labels.
  trials: (params) => [{ test: 'icmp', params: { count: params.count, interval: params.interval }, estimatedSeconds: params.count * params.interval }],
  async check(host, ctx) {
    const result = await host.exec(['ping', '-V'], { signal: ctx.signal });
    const version = /\\d{8}|\\d+(?:\\.\\d+)+/.exec(result.stdout)?.[0];
    if (result.code !== 0 || !version) throw new ToolMissingError('ping', host.id, result.stderr.trim());
    return { version, features: {}, command: 'ping' };
  },
  async run(trial, ctx) {
    // trial.params is what trials() returned, typed: { count: number; interval: number }.
    const { count, interval } = trial.params;
    // An address, checked, and after -- : a target such as -f/etc/passwd must never read as an option.
    const target = assertHostAddress(trial.target, 'ping target');
    const result = await trial.client.exec(['ping', '-q', '-n', '-c', String(count), '-i', String(interval), '--', target], { signal: ctx.signal, timeoutMs: ctx.timeoutMs });
    // Keep the raw output before parsing, so a parse failure still leaves it in the run folder.
    // Kept as raw/<trial id>-ping.txt: name the output, the run adds the trial id.
    const source = await ctx.saveRaw('ping.txt', result.stdout + result.stderr);
    if (result.code !== 0 && result.code !== 1) {
      if (/Network is unreachable|Temporary failure/.test(result.stderr)) throw new RetryableError(result.stderr.trim());
      throw new Error('ping exited with ' + String(result.code) + ': ' + result.stderr.trim());
    }
    return { samples: parse(result.stdout, { source }) };
  },
  // For \`netbench import --tool auto\`: does this text look like this tool's output? (cheap, pure)
  sniff: (head) => /packets transmitted/.test(head),
  parse,
});
`,
    'src/__fixtures__/ping-q-loopback.txt': FIXTURE,
    'src/conformance.test.ts': `import { describe, it } from 'vitest';
import { toolConformance } from '@netbench/plugin-api/testing';
import plugin from './index.js';

// The checks every netbench tool plugin passes, built-in or third-party.
describe('${input.name} conformance', () => {
  for (const check of toolConformance(plugin, {
    packageJson: new URL('../package.json', import.meta.url),
    validBlocks: [{}, { count: 3, interval: 1 }],
    invalidBlocks: [{ count: 0 }, { interval: 'fast' }],
    requireDescriptions: true,
    // Real outputs of the tool; add one file per case you handle.
    fixtures: { dir: new URL('./__fixtures__/', import.meta.url) },
  })) it(check.name, check.run);
});
`,
    'src/parse.test.ts': `import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from './parse.js';

describe('parse', () => {
  it('reads the rtt summary of a real run', () => {
    const raw = readFileSync(new URL('./__fixtures__/ping-q-loopback.txt', import.meta.url), 'utf8');
    expect(parse(raw)).toContainEqual({ metric: 'latency_avg', value: 0.051, unit: 'ms' });
    expect(parse(raw)).toContainEqual({ metric: 'packet_loss', value: 0, unit: 'percent' });
  });
});
`,
    'README.md': readme(
      input,
      `## What to change

- \`src/schema.ts\`: the fields of your benchmark block (strict zod object, every field described).
- \`src/plugin.ts\`: \`trials\`, \`check\`, \`install\` (optional), \`serve\` (optional, the server side), \`run\`.
- \`src/parse.ts\` and \`src/__fixtures__/\`: capture real outputs of your tool into the fixtures folder;
  the conformance kit parses every file there (list error outputs in \`fixtures.rejects\`).`,
    ),
  };
}
