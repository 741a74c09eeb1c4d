// Public surface of `netbench import` (re-exported by the package entry).

export { detectTools, SNIFF_BYTES, sniffHead } from './detect-tool.js';
export { ImportError } from './import-error.js';
export type { ImportedFile, ImportFilesOptions, ImportOutcome } from './import-files.js';
export { importFiles } from './import-files.js';
