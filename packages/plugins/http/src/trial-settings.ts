import { z } from 'zod';
import type { Scalar } from '@netbench/plugin-api';
import { GENERATORS } from './schema.js';

/** The parameters `httpTrials` put in a trial, read back (keys the engine adds are ignored). */
const trialSettingsSchema = z.object({
  generator: z.enum(GENERATORS),
  keepalive: z.boolean(),
  connections: z.int().positive(),
  timeout: z.int().positive(),
  scheme: z.enum(['http', 'https']).optional(),
  size: z.int().nonnegative().optional(),
  url: z.string().optional(),
  workers: z.int().positive().optional(),
  path: z.string().optional(),
  requests: z.int().positive().optional(),
  duration: z.int().positive().optional(),
  threads: z.int().positive().optional(),
  script: z.string().optional(),
  rate: z.number().positive().optional(),
  clientCpus: z.string().optional(),
  serverCpus: z.string().optional(),
});

export type HttpTrialSettings = z.output<typeof trialSettingsSchema>;

export function readTrialSettings(params: Readonly<Record<string, Scalar>>): HttpTrialSettings {
  return trialSettingsSchema.parse(params);
}

/** The object nginx serves for a size: `/obj-1024`. */
export function objectPath(size: number): string {
  return `/obj-${size}`;
}
