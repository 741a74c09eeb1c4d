import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { type RawIssue, SpecError, type SpecIssue } from '../issues/spec-error.js';
import { isPkbConfig } from '../pkb/detect.js';
import type { PluginResolver } from '../registry/types.js';
import { applySets } from './apply-sets.js';
import { checkSpec } from './check-spec.js';
import { flowPairs } from './flows-schema.js';
import { ParsedBlocks } from './parsed-blocks.js';
import type { SkeletonOutput } from './skeleton-schema.js';
import { specTextAsRun } from './spec-as-run.js';
import { nestingIssue, readSpecText, sizeIssue, structureIssues, textPosition, toPlainData } from './spec-limits.js';
import { redactSpecText, resolveSecrets } from './spec-secrets.js';
import { SpecSource } from './spec-source.js';
import type { BenchmarkSpec, MatrixSpec, Spec } from './types.js';

export type SpecInput = { readonly file: string } | { readonly text: string; readonly file?: string };

export interface LoadSpecOptions {
  /** `--set key=value` overrides, applied to the document before validation. */
  readonly sets?: readonly string[];
}

export interface LoadedSpec {
  readonly spec: Spec;
  /** Problems that do not stop the run (an official plugin not installed, an unused host). */
  readonly warnings: string[];
  /** The plugin blocks validation parsed: give them to `createPlan` so none is parsed twice. */
  readonly blocks: ParsedBlocks;
  /** Paths of secret fields given literally (redacted in `spec.source.text`): a `--set` on one must not be stored either. */
  readonly secretLiterals?: readonly (readonly (string | number)[])[];
}

/** Shown in positions when the spec came as text without a file name. */
const TEXT_FILE = '<spec>';

/**
 * Read, parse and validate a spec. Imports only the plugins it names.
 * Throws `SpecError` listing every problem (`FILE:LINE:COL  path  message`),
 * or `NetbenchError` when the file cannot be read.
 */
export async function loadSpec(input: SpecInput, resolver: PluginResolver, options: LoadSpecOptions = {}): Promise<LoadedSpec> {
  const { file, text } = 'text' in input ? { file: input.file ?? TEXT_FILE, text: input.text } : { file: input.file, text: await readSpecText(input.file) };
  const tooBig = sizeIssue(file, text);
  if (tooBig) throw new SpecError([tooBig]);
  const tooDeep = nestingIssue(file, text, (offset) => textPosition(text, offset));
  if (tooDeep) throw new SpecError([tooDeep]);
  const source = new SpecSource(file, text);
  const syntax = source.syntaxIssues();
  if (syntax.length > 0) throw new SpecError(syntax);
  const sets = applySets(source.doc, options.sets ?? []);
  if (sets.issues.length > 0) throw new SpecError(sets.issues);
  source.setPaths.push(...sets.paths);

  if (source.doc.contents === null) throw new SpecError([{ file, line: 1, col: 1, path: '(spec)', message: 'the spec is empty' }]);
  const plain = toPlainData(source.doc, source.lineCounter, file);
  if ('issues' in plain) throw new SpecError(plain.issues);
  const raw = plain.raw;
  const structure = structureIssues(raw);
  if (structure.length > 0) throw new SpecError(sortIssues(structure.map((issue) => source.resolve(issue))));
  // A PerfKit Benchmarker config is translated first; problems still point at its own lines.
  // Loaded only for a PKB config: a native spec's run does not load the translator.
  const pkb = isPkbConfig(raw) ? (await import('./load-pkb.js')).loadPkbDocument(raw, source, resolver) : undefined;
  if (pkb && pkb.issues.length > 0) throw new SpecError(sortIssues([...pkb.issues]));
  const document = pkb ? pkb.document : raw;
  const place = (issue: RawIssue) => (pkb ? pkb.place(issue) : source.resolve(issue));
  // Secret fields: references read now, literals redacted in every stored or shown copy of the text.
  const secrets = await resolveSecrets(document, resolver);
  if (secrets.issues.length > 0) throw new SpecError(sortIssues(secrets.issues.map(place)));
  const blocks = new ParsedBlocks();
  const check = await checkSpec(document, resolver, blocks);
  if (check.issues.length > 0 || !check.skeleton) throw new SpecError(sortIssues(check.issues.map(place)));

  const yamlWarnings = source.doc.warnings.map((w) => {
    const { line, col } = source.lineCounter.linePos(w.pos[0]);
    return `${file}:${line}:${col}  ${w.message}`;
  });
  const warnings = [...yamlWarnings, ...(pkb?.warnings ?? []), ...check.warnings];
  const baseDir = file === TEXT_FILE ? process.cwd() : dirname(resolve(file));
  const spec = buildSpec(
    check.skeleton,
    check.matrix,
    { file: file === TEXT_FILE ? file : resolve(file), text: redactSpecText(pkb?.text ?? specTextAsRun(text, options.sets ?? []), secrets.literals) },
    baseDir,
  );
  return { spec, warnings, blocks, secretLiterals: secrets.literals };
}

function buildSpec(data: SkeletonOutput, matrix: MatrixSpec | undefined, source: Spec['source'], baseDir: string): Spec {
  const { runsDir, ...options } = data.options;
  return {
    name: data.name,
    ...(data.description !== undefined ? { description: data.description } : {}),
    hosts: data.hosts,
    benchmarks: data.benchmarks.map(withFlowPair),
    ...(matrix ? { matrix } : {}),
    ...(data.tunnels?.length ? { tunnels: data.tunnels } : {}),
    publish: data.publish ?? [{ type: 'json' }],
    options: { ...options, ...(runsDir !== undefined ? { runsDir: resolveDir(runsDir, baseDir) } : {}) },
    ...(source ? { source } : {}),
  };
}

/** A `flows` benchmark's `client`/`server` are its first flow's pair, so code that reads one pair still works. */
function withFlowPair(bench: SkeletonOutput['benchmarks'][number]): BenchmarkSpec {
  if (!bench.flows) return bench as BenchmarkSpec;
  const [first] = flowPairs(bench.flows);
  return { ...bench, client: first!.client, server: first!.server } as BenchmarkSpec;
}

function resolveDir(dir: string, baseDir: string): string {
  if (dir === '~' || dir.startsWith('~/')) return resolve(homedir(), dir.slice(2));
  return resolve(baseDir, dir);
}

/** File order, so the list reads top to bottom; identical lines once. */
function sortIssues(issues: SpecIssue[]): SpecIssue[] {
  const seen = new Set<string>();
  return issues
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) => a.issue.line - b.issue.line || a.issue.col - b.issue.col || a.order - b.order)
    .map(({ issue }) => issue)
    .filter((issue) => {
      const key = `${issue.line}:${issue.col}:${issue.path}:${issue.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
