import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSpec } from '../api/run-spec.js';
import type { NetbenchEvent } from '../events/types.js';
import type { AnyPlugin } from '../plugin/define-plugin.js';
import type { RunRecord } from '../engine/run-record.js';
import type { Sample } from '../samples/types.js';
import { staticRegistry } from '../registry/static-registry.js';
import { check, fail, type ConformanceCheck } from './conformance-check.js';
import { echoTool, failingPublisher, KIT_CLOUD, KIT_FAIL, KIT_RECORD, KIT_TOOL, loopbackCloud, recordingPublisher } from './kit-plugins.js';
import { expectPlugin, identityChecks, type PathLike } from './plugin-identity.js';
import { schemaChecks, type BlockExamples } from './schema-checks.js';

export interface PublishedRun {
  readonly record: RunRecord;
  readonly samples: readonly Sample[];
  /** The run folder (deleted after `verify` returns). */
  readonly runDir: string;
  /** `location` the publisher returned. */
  readonly location?: string;
  readonly count: number;
}

export interface PublisherConformanceOptions extends BlockExamples {
  readonly packageJson?: PathLike;
  /** Check what the publisher wrote for a real run (its first valid block's settings). */
  readonly verify?: (published: PublishedRun) => Promise<void> | void;
  /** Settings that make it fail (e.g. an unwritable path): its failure must not stop the publisher after it. */
  readonly failingBlock?: Record<string, unknown>;
}

/**
 * The conformance checks of a publisher: identity, a strict settings
 * schema, publishing a real run (through the real engine, on loopback), and
 * isolation: a failing publisher before it does not stop it, and its own
 * failure does not stop the one after it.
 */
export function publisherConformance(value: unknown, options: PublisherConformanceOptions): ConformanceCheck[] {
  const plugin = () => expectPlugin(value, 'publisher');
  const block = () => options.validBlocks?.[0] ?? {};
  const checks = [
    ...identityChecks(value, 'publisher', options.packageJson),
    ...schemaChecks(() => plugin().schema, 'the publish settings schema', options),
    check('publishes a real run\'s samples', async () => {
      const run = await runWith(plugin(), [{ type: plugin().name, ...block() }]);
      try {
        const published = run.events.find((e) => e.type === 'published' && e.publisher === plugin().name);
        const errors = run.events.filter((e) => e.type === 'error');
        if (!published || published.type !== 'published') fail(`it did not publish: ${errors.map((e) => e.type === 'error' && e.message).join('; ') || 'no published event'}`);
        if (!Number.isInteger(published.count) || published.count < 0) fail(`publish returned count ${published.count}; return the number of samples written`);
        await options.verify?.({ record: run.record, samples: run.samples, runDir: run.record.runDir, count: published.count, ...(published.location !== undefined ? { location: published.location } : {}) });
      } finally {
        await run.dispose();
      }
    }),
    check('a failing publisher before it does not stop it from publishing', async () => {
      const run = await runWith(plugin(), [{ type: KIT_FAIL }, { type: plugin().name, ...block() }, { type: KIT_RECORD }]);
      try {
        const names = run.events.flatMap((e) => (e.type === 'published' ? [e.publisher] : []));
        if (!names.includes(plugin().name)) fail(`it did not publish after ${KIT_FAIL} failed: ${describeErrors(run.events)}`);
        if (!run.events.some((e) => e.type === 'error' && e.plugin === KIT_FAIL)) fail(`the failure of ${KIT_FAIL} was not reported`);
        if (run.received.length !== 1) fail(`the publisher after it did not publish: ${describeErrors(run.events)}`);
      } finally {
        await run.dispose();
      }
    }),
  ];
  if (options.failingBlock) {
    checks.push(check('its own failure is reported under its name and does not stop the next publisher', async () => {
      // Read now, not when the checks were made (it may name a server a beforeAll started).
      const run = await runWith(plugin(), [{ type: plugin().name, ...options.failingBlock }, { type: KIT_RECORD }]);
      try {
        if (run.events.some((e) => e.type === 'published' && e.publisher === plugin().name)) fail('the failingBlock settings did not make it fail');
        if (!run.events.some((e) => e.type === 'error' && e.plugin === plugin().name)) fail(`its failure was not reported under its name: ${describeErrors(run.events)}`);
        if (run.received.length !== 1) fail('the publisher after it did not publish');
      } finally {
        await run.dispose();
      }
    }));
  }
  return checks;
}

const describeErrors = (events: readonly NetbenchEvent[]) =>
  events.flatMap((e) => (e.type === 'error' ? [e.message] : [])).join('; ') || 'no error reported';

/** Run a one-trial spec on loopback through the real engine with these `publish` entries. */
async function runWith(plugin: AnyPlugin, publish: readonly Record<string, unknown>[]) {
  const dir = await mkdtemp(join(tmpdir(), 'netbench-conformance-'));
  const file = join(dir, 'spec.yaml');
  // JSON is YAML, and keeps the plugin's settings exactly as given.
  await writeFile(file, JSON.stringify({
    name: 'conformance',
    hosts: { a: { cloud: KIT_CLOUD }, b: { cloud: KIT_CLOUD } },
    benchmarks: [{ tool: KIT_TOOL, client: 'a', server: 'b' }],
    publish,
    options: { runsDir: join(dir, 'runs'), install: false, provisionTimeout: 60 },
  }));
  const received: Sample[][] = [];
  const events: NetbenchEvent[] = [];
  const registry = staticRegistry([loopbackCloud, echoTool, failingPublisher, recordingPublisher(received), plugin]);
  const outcome = await runSpec({ file, registry, onEvent: (e) => events.push(e) });
  if (outcome.samples.length === 0) fail(`the conformance run measured nothing: ${describeErrors(events)}`);
  return { ...outcome, events, received, dispose: () => rm(dir, { recursive: true, force: true }) };
}
