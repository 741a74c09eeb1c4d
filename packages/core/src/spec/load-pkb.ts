import { basename, extname } from 'node:path';
import { formatIssue, formatPath, type RawIssue, type SpecIssue } from '../issues/spec-error.js';
import { isPkbConfig } from '../pkb/detect.js';
import { nativeYaml } from '../pkb/native-yaml.js';
import { translatePkb } from '../pkb/translate.js';
import type { PluginResolver } from '../registry/types.js';
import type { SpecSource } from './spec-source.js';

/** A PKB config read for the spec loader: the native document, and positions in the PKB file. */
export interface PkbLoad {
  /** The native spec document to validate. */
  readonly document: Record<string, unknown>;
  /** The native spec as YAML (what `netbench convert` prints; the run folder's spec.yaml). */
  readonly text: string;
  /** Every warning, placed in the PKB file (`FILE:LINE:COL  path  message`). */
  readonly warnings: readonly string[];
  /** Problems that stop the load, placed in the PKB file. */
  readonly issues: readonly SpecIssue[];
  /** Place a problem found in the native document at the PKB line it came from. */
  place(issue: RawIssue): SpecIssue;
  /** The PKB benchmarks translated. */
  readonly benchmarks: readonly string[];
}

/**
 * When `raw` (the parsed file) is a PKB config, translate it; else undefined.
 * The loader validates `document` like any spec and positions problems with
 * `place`, so they point at the PKB file's own lines.
 */
export function loadPkbDocument(raw: unknown, source: SpecSource, resolver: PluginResolver): PkbLoad | undefined {
  if (!isPkbConfig(raw)) return undefined;
  const named = source.file !== '<spec>' ? basename(source.file, extname(source.file)) : undefined;
  // PKB's iperf benchmark is iperf 2: use the iperf plugin when it is installed.
  const iperfTool = resolver.list('tool').some((d) => d.name === 'iperf') ? 'iperf' : 'iperf3';
  const translation = translatePkb(raw, { ...(named ? { name: named } : {}), iperfTool });
  const warnings = translation.problems.warnings.map((w) => formatIssue(source.resolve(w)));
  if (iperfTool === 'iperf3' && translation.benchmarks.includes('iperf')) {
    warnings.push(`${source.file}  PKB's iperf benchmark runs iperf 2; the iperf plugin is not installed, so netbench runs iperf3 with the same streams, duration and direction`);
  }
  const place = (issue: RawIssue): SpecIssue => {
    const found = translation.origins.find(issue.path);
    const native = formatPath(issue.path);
    if (!found) return source.resolve({ path: [], message: `${native}: ${issue.message}` });
    return source.resolve({ path: found.pkb, message: `${issue.message} (netbench ${native})`, ...(found.exact && issue.anchor ? { anchor: issue.anchor } : {}) });
  };
  const header = [
    `netbench spec translated from the PerfKit Benchmarker config ${source.file === '<spec>' ? '' : basename(source.file)}`.trimEnd(),
    `(PKB benchmark${translation.benchmarks.length === 1 ? '' : 's'}: ${translation.benchmarks.join(', ')}); see docs/pkb.md for the mapping.`,
    ...(warnings.length > 0 ? ['Translation notes:', ...warnings.map((w) => `  ${w}`)] : []),
  ];
  return {
    document: translation.document,
    text: nativeYaml(translation.document, { header, notes: translation.notes }),
    warnings,
    issues: translation.problems.issues.map((issue) => source.resolve(issue)),
    place,
    benchmarks: translation.benchmarks,
  };
}
