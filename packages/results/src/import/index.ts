// Public surface of `netbench import` (re-exported by the package entry).
export { importFiles } from './import-files.js';
export type { ImportFilesOptions, ImportOutcome, ImportedFile } from './import-files.js';
export { ImportError } from './import-error.js';
export { detectTools, sniffHead, SNIFF_BYTES } from './detect-tool.js';
