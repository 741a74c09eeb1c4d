// Helpers for tool plugins: run a command telling "not installed" apart, install with apt-get.
export { runOnHost, isMissing, isRoot } from './run-on-host.js';
export type { CommandOutcome } from './run-on-host.js';
export { installAptPackage } from './install-apt-package.js';
