import type { PluginResolver } from '@netbench/core';
import { callPlugin, parseBlock } from '@netbench/core';
import type { PublishResult } from '@netbench/plugin-api';
import { NetbenchError, REDACTED } from '@netbench/plugin-api';
import { parse } from 'yaml';
import { withStore } from './with-store.js';

export interface PublishStoredRunOptions {
  readonly db?: string;
  readonly run: string;
  /** Publisher plugin name (`postgres`, `json`, …). */
  readonly publisher: string;
  /**
   * Settings for the publisher. Default: the run's own `publish[]` entry of
   * that type in its stored spec, if any; `settings` override its fields.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly registry: PluginResolver;
  /** Milliseconds the publisher may take (default 600000). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onWarning?: (message: string) => void;
}

export interface StoredRunPublished extends PublishResult {
  readonly runId: string;
  readonly publisher: string;
}

/**
 * `netbench results publish`: send a stored run through a publisher again
 * (after the backend was down, or to a new one). Settings are validated by
 * the publisher's schema; failures name the plugin.
 */
export async function publishStoredRun(options: PublishStoredRunOptions): Promise<StoredRunPublished> {
  const results = await withStore(options.db, (store) => store.load(store.resolve(options.run)), { create: false });
  const publisher = await options.registry.get('publisher', options.publisher);
  if (!publisher) throw new NetbenchError(`no publisher plugin named ${options.publisher} is installed`);
  const fromSpec = specEntry(results.run.specText, options.publisher);
  const settings = parseBlock(publisher.schema, { ...fromSpec, ...options.settings }, `--to ${options.publisher}`);
  const log = { debug() {}, info() {}, warn: (message: string) => options.onWarning?.(message) };
  const result = await callPlugin(
    publisher,
    'publish',
    (signal) => publisher.publish(results.run, results.samples, settings, { runId: results.run.runId, runDir: results.run.runDir, signal, log }),
    {
      timeoutMs: options.timeoutMs ?? 600_000,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  return { runId: results.run.runId, publisher: options.publisher, count: result?.count ?? 0, ...(result?.location !== undefined ? { location: result.location } : {}) };
}

/** The fields of the spec's first `publish[]` entry of `type` (without `type`), or nothing. */
function specEntry(specText: string | undefined, type: string): Record<string, unknown> {
  if (specText === undefined) return {};
  try {
    const spec = parse(specText) as { publish?: unknown };
    const entry = Array.isArray(spec?.publish) ? spec.publish.find((p: unknown) => (p as { type?: unknown })?.type === type) : undefined;
    if (typeof entry !== 'object' || entry === null) return {};
    const { type: _type, ...fields } = entry as Record<string, unknown>;
    // A secret was redacted when the run was stored: leave it out, so the publisher falls back to its environment.
    return withoutRedacted(fields) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function withoutRedacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== REDACTED).map(withoutRedacted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== REDACTED)
      .map(([k, v]) => [k, withoutRedacted(v)]),
  );
}
