// The SSH transport: `connectSshHost` and its types. Cloud plugins build their Hosts with it.
export { connectSshHost } from './connect-ssh-host.js';
export type { SshConnectContext } from './connect-ssh-host.js';
export { SshConnectError } from './connect-with-retry.js';
export type { SshConnectRetry, SshHost, SshHostKeyPolicy, SshHostOptions, SshJumpOptions } from './ssh-host-options.js';
