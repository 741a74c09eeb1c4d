// Public entry of `@netbench/plugin-api/testing`: the conformance kit every plugin
// runs, built-in or third-party. Framework-agnostic: each check is
// `{ name, run }`; register them with your test runner, e.g. with vitest
//   for (const c of toolConformance(plugin, options)) it(c.name, c.run);

export { closedPort } from './closed-port.js';
export type { CloudConformanceOptions, CloudProvisionScenario } from './cloud-conformance.js';
export { cloudConformance } from './cloud-conformance.js';
export type { ConformanceCheck } from './conformance-check.js';
export { ConformanceError } from './conformance-check.js';
export { consoleWithKeys } from './console-with-keys.js';
export type { LabSshd, LabSshdOptions } from './lab-sshd.js';
export { keygen, startSshd } from './lab-sshd.js';
export type { LabHosts, LabTrialOptions } from './lab-trial.js';
export { labTrial } from './lab-trial.js';
export { MemoryLedger } from './memory-ledger.js';
export type { PathLike } from './plugin-identity.js';
export type { PublishedRun, PublisherConformanceOptions } from './publisher-conformance.js';
export { publisherConformance } from './publisher-conformance.js';
export { sampleProblems } from './sample-shape.js';
export type { BlockExamples } from './schema-checks.js';
export { blockJsonSchema } from './schema-checks.js';
export type { PathWithout, SudoState } from './sudo-state.js';
export { aptSudoRefusal, pathWithout, sudoState, withPath } from './sudo-state.js';
export type { TestTrialContext, TrialProgress } from './test-trial-context.js';
export { testTrialContext } from './test-trial-context.js';
export type { FileMatcher, ToolConformanceOptions, ToolFixtures } from './tool-conformance.js';
export { toolConformance } from './tool-conformance.js';
export type { TwoHostLab, TwoHostLabOptions } from './two-host-lab.js';
export { twoHostLab } from './two-host-lab.js';
