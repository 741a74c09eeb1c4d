export { loadSpec } from './load-spec.js';
export type { LoadSpecOptions, LoadedSpec, SpecInput } from './load-spec.js';
export { SpecError, formatIssue } from '../issues/spec-error.js';
export type { SpecIssue } from '../issues/spec-error.js';
export { specJsonSchema } from './spec-json-schema.js';
