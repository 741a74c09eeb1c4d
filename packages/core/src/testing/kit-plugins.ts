// Small real plugins the kit runs a plugin under test beside, through the
// real engine: hosts on loopback that create nothing, a tool that runs
// `echo`, and publishers that fail or record.
import { z } from 'zod';
import { definePlugin } from '../plugin/define-plugin.js';
import type { Sample } from '../samples/types.js';
import { ParseError } from '../errors/index.js';
import { processHost } from '../transport/process-host.js';

export const KIT_CLOUD = 'conformance-loopback';
export const KIT_TOOL = 'conformance-echo';
export const KIT_FAIL = 'conformance-fail';
export const KIT_RECORD = 'conformance-record';

export const loopbackCloud = definePlugin({
  kind: 'cloud',
  name: KIT_CLOUD,
  version: '1.0.0',
  hostSchema: z.strictObject({}),
  async provision(requests) {
    return requests.map((r) => processHost({ id: r.id, name: r.name, cloud: KIT_CLOUD, internalIp: '127.0.0.1' }));
  },
  async teardown() {},
});

export const echoTool = definePlugin({
  kind: 'tool',
  name: KIT_TOOL,
  version: '1.0.0',
  schema: z.strictObject({}),
  trials: () => [{ test: 'echo', params: { words: 1 }, estimatedSeconds: 0 }],
  async check() {
    return { version: '1.0.0', features: {} };
  },
  async run(trial, ctx) {
    const result = await trial.client.exec(['echo', '42'], { signal: ctx.signal });
    return { samples: this.parse(result.stdout, { source: trial.id }) };
  },
  parse(raw, options) {
    const value = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(value)) throw new ParseError('expected a number', options?.source, 1);
    return [{ metric: 'echo_value', value, unit: 'count' }];
  },
});

export const failingPublisher = definePlugin({
  kind: 'publisher',
  name: KIT_FAIL,
  version: '1.0.0',
  schema: z.strictObject({}),
  async publish() {
    throw new Error('conformance-fail always fails');
  },
});

/** A publisher that keeps what it was given, to prove it still ran. */
export function recordingPublisher(received: Sample[][]) {
  return definePlugin({
    kind: 'publisher',
    name: KIT_RECORD,
    version: '1.0.0',
    schema: z.strictObject({}),
    async publish(_run, samples) {
      received.push([...samples]);
      return { count: samples.length };
    },
  });
}
