import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../run/run-files.js';
import type { RunRecord } from '../run/run-record.js';
import type { Sample } from '../samples/types.js';
import { type ConformanceCheck, check, fail } from './conformance-check.js';
import { conformanceRun } from './conformance-run.js';
import { expectPlugin, identityChecks, type PathLike } from './plugin-identity.js';
import { type BlockExamples, schemaChecks } from './schema-checks.js';

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
  /** Settings that make it fail (e.g. an unwritable path): publish must reject with an Error. */
  readonly failingBlock?: Record<string, unknown>;
}

/**
 * The conformance checks of a publisher: identity, a strict settings
 * schema, publishing a complete run (made by `conformanceRun`: the shape the
 * engine records), and failing cleanly: with `failingBlock` settings its
 * publish rejects with an Error (it does not hang or throw outside the
 * promise), and it publishes again afterwards. That one failing publisher
 * does not stop another is the engine's guarantee, tested in core.
 */
export function publisherConformance(value: unknown, options: PublisherConformanceOptions): ConformanceCheck[] {
  const plugin = () => expectPlugin(value, 'publisher');
  const block = () => options.validBlocks?.[0] ?? {};
  const checks = [
    ...identityChecks(value, 'publisher', options.packageJson),
    ...schemaChecks(() => plugin().schema, 'the publish settings schema', options),
    check("publishes a complete run's samples", async () => {
      await withRun(async (results, runDir) => {
        const result = await publishOnce(plugin(), block(), results, runDir);
        if (!Number.isInteger(result.count) || result.count < 0) fail(`publish returned count ${result.count}; return the number of samples written`);
        await options.verify?.({
          record: results.run,
          samples: results.samples,
          runDir,
          count: result.count,
          ...(result.location !== undefined ? { location: result.location } : {}),
        });
      });
    }),
  ];
  if (options.failingBlock) {
    checks.push(
      check('its own failure rejects with an Error, and it publishes again afterwards', async () => {
        await withRun(async (results, runDir) => {
          // Read now, not when the checks were made (it may name a server a beforeAll started).
          let failed: unknown;
          try {
            await publishOnce(plugin(), options.failingBlock ?? {}, results, runDir);
          } catch (error) {
            failed = error;
          }
          if (failed === undefined) fail('the failingBlock settings did not make it fail');
          if (!(failed instanceof Error) || failed.message === '') fail(`it failed with ${String(failed)}; reject with an Error whose message says what went wrong`);
          await publishOnce(plugin(), block(), results, runDir);
        });
      }),
    );
  }
  return checks;
}

type PublisherOf = ReturnType<typeof expectPlugin<'publisher'>>;

async function publishOnce(plugin: PublisherOf, settings: Record<string, unknown>, results: RunResults, runDir: string) {
  const parsed = plugin.schema.parse(settings);
  const log = { debug() {}, info() {}, warn() {} };
  const result = await plugin.publish(results.run, results.samples, parsed, { runId: results.run.runId, runDir, signal: AbortSignal.timeout(60_000), log });
  return result ?? { count: 0 };
}

async function withRun(body: (results: RunResults, runDir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'netbench-conformance-'));
  try {
    await body(conformanceRun(dir), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
