import type { ProvisionContext, SshHost, SshHostOptions } from '@netbench/plugin-api';

/** What the plugin hands the SSH transport (the contract's `SshHostOptions`). */
export type SshConnectOptions = SshHostOptions;
export type ConnectedHost = SshHost;

/** How hosts are connected: the engine's `ctx.connectSsh` unless a test or embedder gives another. */
export type ConnectSsh = (options: SshHostOptions, ctx: ProvisionContext) => Promise<SshHost>;

export const coreConnect: ConnectSsh = (options, ctx) => ctx.connectSsh(options);
