import type { LabelPair } from '../../shared/bridge-types';

/** A label selection in one route segment: `zone=us-east1-b&tool=ping` (URL-encoded, so `&` and `=` in values survive). */
export function encodeSelection(pairs: readonly LabelPair[]): string {
  return new URLSearchParams(pairs.map((p) => [p.key, p.value])).toString();
}

export function decodeSelection(text: string): LabelPair[] {
  return [...new URLSearchParams(text)].map(([key, value]) => ({ key, value }));
}

/** `zone=us-east1-b tool=ping`, as `netbench compare --baseline` shows a selection. */
export function selectionText(pairs: readonly LabelPair[]): string {
  return pairs.map((p) => `${p.key}=${p.value}`).join(' ');
}

/** Conditions with a key; a row whose key is still empty is ignored. */
export function completePairs(pairs: readonly LabelPair[]): LabelPair[] {
  return pairs.map((p) => ({ key: p.key.trim(), value: p.value })).filter((p) => p.key !== '');
}
