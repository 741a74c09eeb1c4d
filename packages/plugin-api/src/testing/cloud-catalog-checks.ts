import type { CloudPlugin } from '../plugin/cloud.js';
import { type ConformanceCheck, check, errorText, fail } from './conformance-check.js';

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** The most problems one failure lists: enough to fix a batch, short enough to read. */
const SHOWN = 10;

/**
 * The latest calendar date anywhere on Earth now (UTC+14): a list dated
 * after it cannot have been compiled yet, whatever its author's time zone.
 */
export function latestDateOnEarth(now = Date.now()): string {
  return new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
/** A value as a reader would write it (JSON hides NaN and Infinity as null). */
const shown = (value: unknown) => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));
const positive = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Problems of a catalog value, each a sentence; none means it keeps the `CloudCatalog` contract. */
export function catalogProblems(catalog: unknown, today = latestDateOnEarth()): string[] {
  if (!isRecord(catalog)) return [`catalog() returned ${shown(catalog)}, not { date, regions, machineTypes }`];
  const problems: string[] = [];
  const { date, regions, machineTypes } = catalog;
  // A real calendar day: Date rolls 2025-02-30 over to March, and makes nothing of month 13.
  const day = typeof date === 'string' && ISO_DATE_RE.test(date) ? new Date(`${date}T00:00:00Z`) : undefined;
  const real = day !== undefined && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(date as string);
  if (!real) problems.push(`date ${shown(date)} is not an ISO date (YYYY-MM-DD): say when the list was compiled`);
  else if ((date as string) > today) problems.push(`date ${date as string} is in the future (today is ${today} at most)`);

  if (!Array.isArray(regions) || regions.length === 0) problems.push('regions must be a non-empty list');
  else {
    const regionNames = new Set<string>();
    const zoneOwner = new Map<string, string>();
    regions.forEach((region: unknown, i) => {
      const name = isRecord(region) ? region['name'] : undefined;
      const label = nonEmptyString(name) ? `region ${name}` : `regions[${i}]`;
      if (!nonEmptyString(name)) problems.push(`${label} has no name`);
      else if (regionNames.has(name)) problems.push(`region ${name} is listed twice`);
      else regionNames.add(name);
      const zones = isRecord(region) ? region['zones'] : undefined;
      if (!Array.isArray(zones)) {
        problems.push(`${label} has no zones list`);
        return;
      }
      for (const zone of zones as unknown[]) {
        if (!nonEmptyString(zone)) problems.push(`${label} has a zone ${shown(zone)} that is not a name`);
        else if (zoneOwner.has(zone)) problems.push(`zone ${zone} of ${label} is also listed under ${zoneOwner.get(zone)!}: a zone names one place`);
        else zoneOwner.set(zone, label);
      }
    });
  }

  if (!Array.isArray(machineTypes) || machineTypes.length === 0) problems.push('machineTypes must be a non-empty list');
  else {
    const typeNames = new Set<string>();
    machineTypes.forEach((type: unknown, i) => {
      const name = isRecord(type) ? type['name'] : undefined;
      const label = nonEmptyString(name) ? `machine type ${name}` : `machineTypes[${i}]`;
      if (!nonEmptyString(name)) problems.push(`${label} has no name`);
      else if (typeNames.has(name)) problems.push(`machine type ${name} is listed twice`);
      else typeNames.add(name);
      if (!isRecord(type)) return;
      for (const field of ['vcpus', 'memoryGib'] as const) {
        if (type[field] !== undefined && !positive(type[field])) problems.push(`${label} has ${field} ${shown(type[field])}: leave it out or give a positive number`);
      }
      if (type['family'] !== undefined && !nonEmptyString(type['family'])) problems.push(`${label} has family ${shown(type['family'])}: leave it out or name it`);
    });
  }
  return problems;
}

/**
 * Checks of the optional members a cloud adds for pickers and cross-cloud
 * runs: `catalog()` is a synchronous, dated list that a picker can key by
 * name; `admitPeers` is a `(peers, ctx)` function. admitPeers is not called:
 * it needs a provisioned run (the provision scenario's cloud proves it).
 */
export function cloudCatalogChecks(plugin: () => CloudPlugin<unknown>): ConformanceCheck[] {
  return [
    check('catalog (when defined) returns at once a dated list of uniquely named regions, zones and machine types', () => {
      const cloud = plugin();
      if (cloud.catalog === undefined) return;
      if (typeof cloud.catalog !== 'function') fail(`catalog must be a function, not ${typeof cloud.catalog}`);
      let catalog: unknown;
      try {
        catalog = cloud.catalog();
      } catch (error) {
        fail(`catalog() threw ${errorText(error)}: it is shipped data and cannot fail`, error);
      }
      if (isRecord(catalog) && typeof catalog['then'] === 'function') {
        void Promise.resolve(catalog).catch(() => {}); // never an unhandled rejection from the plugin's promise
        fail('catalog() returned a promise: return the list itself (shipped data: no SDK, no network)');
      }
      const problems = catalogProblems(catalog);
      if (problems.length > 0) {
        const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : '';
        fail(`catalog() of ${cloud.name}: ${problems.slice(0, SHOWN).join('; ')}${more}`);
      }
    }),
    check('admitPeers (when defined) is a function of (peers, ctx)', () => {
      const cloud = plugin();
      if (cloud.admitPeers === undefined) return;
      if (typeof cloud.admitPeers !== 'function') fail(`admitPeers must be a function, not ${typeof cloud.admitPeers}`);
      if (cloud.admitPeers.length > 2) fail(`admitPeers declares ${cloud.admitPeers.length} parameters: the engine passes two (peers, ctx), so the rest would be undefined`);
    }),
  ];
}
