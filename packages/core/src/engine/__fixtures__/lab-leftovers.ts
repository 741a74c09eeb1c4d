import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerResource } from '@netbench/plugin-api';
import { readLedger } from '@netbench/plugin-api';
import { isAlive, killIfOurs } from './lab-cloud.js';

/** Every lab resource a run's ledger ever recorded. */
export async function labResources(runDir: string): Promise<LedgerResource[]> {
  const seen = new Map<string, LedgerResource>();
  for (const entry of await readLedger(join(runDir, 'ledger.jsonl'))) seen.set(`${entry.resource.type}:${entry.resource.id}`, entry.resource);
  return [...seen.values()];
}

/** Whether a lab resource exists on this machine right now. */
export function exists(resource: LedgerResource): boolean {
  if (resource.type === 'dir') return existsSync(resource.id);
  if (resource.type === 'process') return isAlive(Number(resource.id), resource.data?.['argv'] as string[]);
  return false;
}

/** Kill every keeper process any run under `runsDir` recorded (test safety net after failures). */
export async function sweep(runsDir: string): Promise<void> {
  if (!existsSync(runsDir)) return;
  for (const run of readdirSync(runsDir)) {
    for (const resource of await labResources(join(runsDir, run))) {
      if (resource.type === 'process') await killIfOurs(Number(resource.id), resource.data?.['argv'] as string[]);
    }
  }
}
