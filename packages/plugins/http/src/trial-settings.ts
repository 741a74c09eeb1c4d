import type { GENERATORS } from './schema.js';

/**
 * The parameters `httpTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type HttpTrialSettings = {
  readonly generator: (typeof GENERATORS)[number];
  readonly keepalive: boolean;
  readonly connections: number;
  readonly timeout: number;
  readonly scheme?: 'http' | 'https';
  readonly size?: number;
  readonly url?: string;
  readonly workers?: number;
  readonly path?: string;
  readonly requests?: number;
  readonly duration?: number;
  readonly threads?: number;
  readonly script?: string;
  readonly rate?: number;
  /** `clientCpus` / `serverCpus` of the block, under the names every tool's pinning has in params and labels (the engine's placement warning reads them). */
  readonly cpu_client?: string;
  readonly cpu_server?: string;
};

/** The object nginx serves for a size: `/obj-1024`. */
export function objectPath(size: number): string {
  return `/obj-${size}`;
}
