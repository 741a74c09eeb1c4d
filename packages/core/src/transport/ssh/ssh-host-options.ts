import type { SshConnectRetry } from '@netbench/plugin-api';

export type { SshConnectRetry, SshHost, SshHostKeyPolicy, SshHostOptions, SshJumpOptions } from '@netbench/plugin-api';

export const DEFAULT_CONNECT_RETRY: SshConnectRetry = { attempts: 3, initialDelayMs: 500, maxDelayMs: 5000 };
export const DEFAULT_READY_TIMEOUT_MS = 10_000;
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 10_000;
