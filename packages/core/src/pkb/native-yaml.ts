import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';

export interface NativeYamlOptions {
  /** First comment lines (what was translated, from where). */
  readonly header: readonly string[];
  /** One comment per `benchmarks[]` entry. */
  readonly notes?: readonly string[];
}

/**
 * The native spec as YAML a person would write: host templates and lists of
 * scalars in flow style, a comment over each benchmark saying which PKB step
 * it reproduces, and the header on top.
 */
export function nativeYaml(document: Readonly<Record<string, unknown>>, options: NativeYamlOptions): string {
  // Repeated lists stay written out: anchors (&a1) would only puzzle a reader.
  const doc = new Document(document, { aliasDuplicateObjects: false });
  doc.commentBefore = options.header.map((line) => ` ${line}`).join('\n');
  const hosts = doc.get('hosts', true);
  if (isMap(hosts)) for (const pair of hosts.items) if (isMap(pair.value) && pair.value.items.every((item) => isScalar(item.value) || isSeq(item.value))) pair.value.flow = true;
  const benchmarks = doc.get('benchmarks', true);
  if (isSeq(benchmarks)) {
    benchmarks.items.forEach((item, i) => {
      const note = options.notes?.[i];
      if (note && isMap(item)) (item as Node).commentBefore = ` ${note}`;
    });
  }
  flowScalarLists(doc.contents);
  return doc.toString({ lineWidth: 120, flowCollectionPadding: true });
}

function flowScalarLists(node: unknown): void {
  if (isSeq(node)) {
    // Short lists of values on one line; a long one (20 zones) reads better one per line.
    if (node.items.every((item) => isScalar(item)) && node.items.reduce((n, item) => n + String((item as { value: unknown }).value).length + 2, 0) <= 80) node.flow = true;
    else node.items.forEach(flowScalarLists);
  } else if (isMap(node)) {
    node.items.forEach((pair) => flowScalarLists(pair.value));
  }
}
