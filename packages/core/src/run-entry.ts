// `@netbench/core/run`: what `netbench run` needs and nothing else, so the
// command does not load the whole core (PKB translation, plugin admin,
// cleanup, doctor) at start. Named re-exports only, no side effects.

export { resumeRun } from './api/resume-run.js';
export type { RunSpecOptions } from './api/run-spec.js';
export { runSpec } from './api/run-spec.js';
export { parseStageRange } from './engine/stages/stages.js';
export { printable } from './errors/printable.js';
export { parseShard } from './plan/shard-plan.js';
export { createRegistry } from './registry/create-registry.js';
export type { RootInput } from './registry/plugin-roots.js';
export type { PluginDescriptor, PluginResolver } from './registry/types.js';
