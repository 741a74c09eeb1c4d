import { resolve } from 'node:path';
import type { RunStore } from '@netbench/core';
import { openStore } from './open-store.js';
import { defaultStorePath } from './store-path.js';

/** The results store as the engine's `store` option: each run ingested in one transaction. */
export function runStore(path: string = defaultStorePath()): RunStore {
  const file = resolve(path);
  return {
    location: file,
    async ingest(run, samples) {
      const store = await openStore(file);
      try {
        store.ingest({ run, samples });
      } finally {
        store.close();
      }
    },
    async updateRecord(run) {
      const store = await openStore(file);
      try {
        store.updateRecord(run);
      } finally {
        store.close();
      }
    },
  };
}
