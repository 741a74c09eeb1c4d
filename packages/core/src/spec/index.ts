export { loadSpec } from './load-spec.js';
export type { LoadSpecOptions, LoadedSpec, SpecInput } from './load-spec.js';
export { SpecError, formatIssue } from './spec-error.js';
export type { SpecIssue } from './spec-error.js';
export { specJsonSchema } from './spec-json-schema.js';
