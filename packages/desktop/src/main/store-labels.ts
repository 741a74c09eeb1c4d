import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultStorePath, withStore } from '@netbench/results';
import type { StoreLabels } from '../shared/bridge-types.js';

/**
 * The label keys and values in the results store, for the compare page's
 * `key=value` pickers (core's `ResultsStore.labelKeys`). No store yet means
 * no labels, not an error: the page is usable before the first run.
 */
export async function storeLabels(db: string | undefined): Promise<StoreLabels> {
  const file = resolve(db ?? defaultStorePath());
  if (!existsSync(file)) return { keys: [] };
  return withStore(file, (store) => ({ keys: store.labelKeys() }), { create: false });
}
