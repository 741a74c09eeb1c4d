import { type OpenStoreOptions, openStore } from './open-store.js';
import type { ResultsStore } from './results-store.js';

/** Open the store, do `work`, close it whatever happens. */
export async function withStore<T>(db: string | undefined, work: (store: ResultsStore) => T | Promise<T>, options: OpenStoreOptions = {}): Promise<T> {
  const store = await openStore(db, options);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
