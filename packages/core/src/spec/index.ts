export type { SpecIssue } from '../issues/spec-error.js';
export { formatIssue, SpecError } from '../issues/spec-error.js';
export type { LoadedSpec, LoadSpecOptions, SpecInput } from './load-spec.js';
export { loadSpec } from './load-spec.js';
export { specJsonSchema } from './spec-json-schema.js';
