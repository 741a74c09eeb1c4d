// Helpers for tool plugins: run a command telling "not installed" apart, install with apt-get, per-trial server ports and lifecycle, client runs.

export type { PortProtocol } from './bound-ports.js';
export { boundPorts, readBoundPorts } from './bound-ports.js';
export type { CpuPinning } from './cpu-placement.js';
// CPU placement: pin each end (`cpus: { client, server }`) and read back where it ran.
export { childPids, clientCpuSchema, clientOnlyPlacement, cpuParams, cpusSchema, firstOutput, pinnedArgv, placementLabels, readAffinity } from './cpu-placement.js';
// Addresses: refuse anything a tool could read as an option before it reaches argv.
export { assertHostAddress, hostAddressSchema, ipv4CidrSchema, isHostAddress, isIpv4Cidr } from './host-address.js';
export { installAptPackage } from './install-apt-package.js';
// The headline metrics of PKB's ping names, declared once for the tools that emit them.
export { PING_METRICS } from './ping-metrics.js';
export { PortPool } from './port-pool.js';
export { assertReachableRange, describeReachable, reachablePort } from './reachable-ports.js';
export { readSpecFile } from './read-spec-file.js';
export type { CommandOutcome } from './run-on-host.js';
export { isMissing, isRoot, runOnHost } from './run-on-host.js';
export { gatedArgv, openGate, shutGate } from './start-gate.js';
export type { ToolClientOptions, TrialDeadline } from './tool-client.js';
export { runToolClient, trialDeadline } from './tool-client.js';
export type { ToolServer, ToolServerOptions } from './tool-server.js';
export { PortInUseError, startToolServer, startToolServerOnFreePort, withToolServer } from './tool-server.js';
