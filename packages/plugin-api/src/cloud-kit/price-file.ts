import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { netbenchHome } from '../run-id/runs-dir.js';

/**
 * Where a user keeps price overrides for `cloud`: `$NETBENCH_<CLOUD>_PRICES`,
 * else `$NETBENCH_HOME/prices/<cloud>.json` (`~/.netbench/prices/<cloud>.json`).
 */
export function priceFilePath(cloud: string): string {
  return process.env[`NETBENCH_${cloud.toUpperCase()}_PRICES`] ?? join(netbenchHome(), 'prices', `${cloud}.json`);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
function merge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(base[k]) ? merge(base[k] as Json, v) : v;
  return out;
}

/**
 * The shipped table with the user's JSON file (if any) merged over it, entry
 * by entry (objects merged, anything else replaced). A missing file is no
 * override; an unreadable one is ignored with a note, so an estimate never
 * fails over a price file.
 */
export function loadPriceFile<T extends object>(shipped: T, file: string): { table: T; notes: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { table: shipped, notes: [] };
  }
  try {
    const table = merge(shipped as unknown as Json, JSON.parse(text) as Json) as unknown as T;
    return { table, notes: [`prices from ${file} over the shipped table`] };
  } catch (error) {
    return { table: shipped, notes: [`ignored ${file}: ${(error as Error).message}`] };
  }
}
