// Public entry of `@netbench/plugin-api/publisher-kit`: the store's row shape
// of a run, for publishers that write samples to a database.

export type { RunRow, SampleColumns, StoreRows, TrialRow } from './store-rows.js';
export { sampleColumns, storedSampleId, storeRows } from './store-rows.js';
export { writePublisherFile } from './write-publisher-file.js';
