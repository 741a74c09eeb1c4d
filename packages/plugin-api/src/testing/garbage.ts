/** Inputs no tool prints: the parser must reject each with a ParseError, never crash or return samples. */
export function garbageInputs(): { readonly label: string; readonly text: string }[] {
  // Deterministic bytes, so a failure reproduces.
  let seed = 0x2545f491;
  const bytes = Array.from({ length: 512 }, () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return String.fromCharCode((seed >>> 0) % 256);
  }).join('');
  return [
    { label: 'empty output', text: '' },
    { label: 'blank lines', text: '\n \n\t\n' },
    { label: 'a shell error', text: 'sh: 1: tool: not found\n' },
    { label: 'prose', text: 'The quick brown fox jumps over the lazy dog.\nNothing was measured here.\n' },
    { label: 'unrelated JSON', text: '{"hello": "world", "values": [1, 2, 3]}\n' },
    { label: 'HTML', text: '<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>\n' },
    { label: 'random bytes', text: bytes },
  ];
}
