import { readFile, writeFile } from 'node:fs/promises';
import { NetbenchError } from '@netbench/plugin-api';
import { parse as parseYaml } from 'yaml';
import { isPkbConfig } from '../pkb/detect.js';
import type { PluginResolver } from '../registry/types.js';
import { loadSpec } from '../spec/load-spec.js';

export interface ConvertPkbOptions {
  /** The PKB config file. */
  readonly file: string;
  readonly registry: PluginResolver;
  /** `--set` overrides, applied to the PKB document before translation. */
  readonly sets?: readonly string[];
  /** Also write the native spec here. */
  readonly out?: string;
}

export interface ConvertedPkb {
  readonly file: string;
  /** The native spec as YAML, with comments. */
  readonly yaml: string;
  /** The native spec document (what the YAML holds). */
  readonly spec: Record<string, unknown>;
  readonly warnings: readonly string[];
  readonly out?: string;
}

/**
 * `netbench convert`: translate a PerfKit Benchmarker config into a native
 * spec, validated like any spec (problems point at the PKB file's lines), so
 * the result plans to the same trials as the PKB file itself.
 */
export async function convertPkb(options: ConvertPkbOptions): Promise<ConvertedPkb> {
  const text = await readFile(options.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new NetbenchError(error.code === 'ENOENT' ? `file not found: ${options.file}` : `cannot read ${options.file}: ${error.message}`, { cause: error });
  });
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 1000 });
  } catch {
    raw = undefined; // loadSpec reports syntax errors with positions
  }
  if (raw !== undefined && !isPkbConfig(raw)) {
    throw new NetbenchError(
      `${options.file} is not a PerfKit Benchmarker config: it should start with a benchmark name (ping:, netperf:, iperf:, ...)${raw !== null && typeof raw === 'object' && 'hosts' in raw ? '; it is already a netbench spec' : ''}`,
    );
  }
  const { spec, warnings } = await loadSpec({ file: options.file }, options.registry, { sets: options.sets ?? [] });
  const yaml = spec.source?.text ?? '';
  if (options.out) await writeFile(options.out, yaml);
  return { file: options.file, yaml, spec: parseYaml(yaml) as Record<string, unknown>, warnings, ...(options.out ? { out: options.out } : {}) };
}
