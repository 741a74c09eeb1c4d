import { connectSshHost, type SshConnectContext, type SshHost, type SshHostOptions } from '@netbench/core';

/** What the plugin hands the SSH transport (core's `SshHostOptions`). */
export type SshConnectOptions = SshHostOptions;
export type ConnectedHost = SshHost;

/** How hosts are connected: `connectSshHost` of `@netbench/core` unless a test or embedder gives another. */
export type ConnectSsh = (options: SshHostOptions, ctx: SshConnectContext) => Promise<SshHost>;

export const coreConnect: ConnectSsh = (options, ctx) => connectSshHost(options, ctx);
