import { parseDocument } from 'yaml';
import { applySets } from './apply-sets.js';

const AS_RUN = '# As run:';
const AS_RUN_RE = /^# As run: [^\n]*\n/;

/**
 * A spec's text as run: with `--set` overrides, the document they were
 * applied to (comments kept) under a first line naming the overridden paths
 * (never their values: one may be a secret), so the run folder's
 * `spec.yaml` and the stored `specText` say what ran and `compare` finds
 * `hosts.b.link.rate: — → 100mbit` in them. Without overrides, the text as
 * written. Resume applies the same function to a given SPEC to check it is
 * the one the run started with.
 */
export function specTextAsRun(text: string, sets: readonly string[]): string {
  if (sets.length === 0) return text;
  // A run folder's spec.yaml planned again (resume) keeps one such line, not two.
  const doc = parseDocument(text.replace(AS_RUN_RE, ''), { prettyErrors: false, uniqueKeys: true });
  const { issues, paths } = applySets(doc, sets);
  if (issues.length > 0 || paths.length === 0) return text;
  return `${AS_RUN} the file with --set ${paths.map((p) => p.join('.')).join(', ')} applied (netbench).\n${String(doc)}`;
}
