import { NetbenchError } from '@netbench/plugin-api';

const USD_RE = /^\$?(\d+(?:\.\d+)?)$/;

/** `5`, `12.50` or `$5` → US dollars (`--max-cost`). */
export function parseUsd(text: string): number {
  const match = USD_RE.exec(text.trim());
  if (!match) throw new NetbenchError(`cannot read --max-cost "${text}": give US dollars such as 5 or 12.50`);
  return Number(match[1]);
}
