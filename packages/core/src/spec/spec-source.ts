import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { formatPath, type RawIssue, type SpecIssue } from '../issues/spec-error.js';

interface Ranged {
  readonly range?: readonly [number, number, number] | null;
}

/** The parsed YAML document with its line table: turns document paths into `line:col`. */
export class SpecSource {
  readonly lineCounter = new LineCounter();
  readonly doc: Document;
  /** Paths changed by `--set`; problems under them say so, since the file does not show the value. */
  readonly setPaths: (readonly string[])[] = [];

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lineCounter, prettyErrors: false, uniqueKeys: true });
  }

  /** YAML syntax errors, every one, with positions. */
  syntaxIssues(): SpecIssue[] {
    const lines = this.text.split('\n');
    let hinted = false;
    return this.doc.errors.map((error) => {
      const { line, col } = this.lineCounter.linePos(error.pos[0]);
      // `{ zone: ${zone} }` is a YAML error (a flow collection inside a plain scalar); say how to fix it once.
      const hint = !hinted && (lines[line - 1] ?? '').includes('${') ? ' (inside { } or [ ], quote a ${var} value: "${var}")' : '';
      if (hint) hinted = true;
      return { file: this.file, line, col, path: '', message: error.message + hint };
    });
  }

  /** Place an issue: the node at its path, else the nearest ancestor that exists in the file. */
  resolve(issue: RawIssue): SpecIssue {
    const offset = this.offsetOf(issue.path, issue.anchor ?? 'value');
    const { line, col } = this.lineCounter.linePos(offset);
    const fromSet = this.setPaths.some((set) => set.every((part, i) => String(issue.path[i]) === part));
    const message = fromSet ? `${issue.message} (value from --set)` : issue.message;
    return { file: this.file, line, col, path: formatPath(issue.path), message };
  }

  private offsetOf(path: readonly (string | number)[], anchor: 'key' | 'value'): number {
    let node: unknown = this.doc.contents;
    let best = rangeStart(node) ?? 0;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
        if (!pair) return best;
        const keyStart = rangeStart(pair.key);
        if (last && anchor === 'key') return keyStart ?? best;
        // `key:` with no value has no value node; the key is the best place.
        node = pair.value;
        best = rangeStart(node) ?? keyStart ?? best;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item === undefined) return best;
        node = item;
        best = rangeStart(node) ?? best;
      } else {
        return best;
      }
    }
    return best;
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Ranged | null | undefined)?.range;
  return range ? range[0] : undefined;
}
