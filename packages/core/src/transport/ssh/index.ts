// The SSH transport: `connectSshHost` and its types. Cloud plugins build their Hosts with it.

export type { SshConnectContext } from './connect-ssh-host.js';
export { connectSshHost } from './connect-ssh-host.js';
export { SshConnectError } from './connect-with-retry.js';
export type { SshConnectRetry, SshHost, SshHostKeyPolicy, SshHostOptions, SshJumpOptions } from './ssh-host-options.js';
export type { OfferedHostKey, TrustHostOptions, TrustHostResult } from './trust-host.js';
// `netbench hosts trust`: a host key recorded in known_hosts only once the user confirmed its fingerprint.
export { fetchHostKey, trustHost } from './trust-host.js';
