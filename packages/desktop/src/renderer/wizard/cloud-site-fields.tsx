import type { CloudCatalog } from '@netbench/plugin-api';
import { useEffect, useState } from 'react';
import type { WizardSite } from '../../shared/bridge-types';
import { useCall } from '../lib/use-call';
import { defaultMachineType, defaultZone } from './network-defaults';

type CloudSite = Extract<WizardSite, { kind: 'cloud' }>;
type MachineType = CloudCatalog['machineTypes'][number];

const OTHER = '\u0000other';

/** `2 vCPU · 8 GiB · general purpose`, from what the catalog knows. */
export function machineFacts(m: MachineType): string {
  return [m.vcpus !== undefined ? `${m.vcpus} vCPU` : '', m.memoryGib !== undefined ? `${m.memoryGib} GiB` : '', m.family ?? ''].filter(Boolean).join(' · ');
}

/**
 * Zone and machine type of a cloud site. The cloud's plugin is asked for its
 * catalog when the cloud is picked: regions → zones and machine types (with
 * vCPUs and memory) to pick from, any other name typed by hand. A cloud
 * without a catalog (or while it loads) takes both as free text.
 */
export function CloudSiteFields({
  index,
  site,
  update,
  earlierZones,
  position,
}: {
  index: number;
  site: CloudSite;
  update(site: CloudSite): void;
  earlierZones: readonly string[];
  position: number;
}) {
  const answer = useCall('cloudCatalog', { cloud: site.cloud }, site.cloud);
  const catalog = answer.data?.catalog ?? undefined;

  // A newly picked cloud starts on the next zone (see defaultZone) and a machine type fit for network tests (not a burstable one).
  useEffect(() => {
    if (!catalog || site.zone !== '' || site.machineType !== '') return;
    update({ ...site, zone: defaultZone(catalog, earlierZones, position), machineType: defaultMachineType(site.cloud, catalog) });
  }, [catalog]); // eslint-disable-line react-hooks/exhaustive-deps -- only when the catalog arrives

  if (!catalog) {
    const note = answer.loading
      ? `Loading the ${site.cloud} catalog…`
      : answer.error
        ? `Could not load the ${site.cloud} catalog (${answer.error.message}): type the names.`
        : `${site.cloud} has no catalog of zones and machine types: type the names.`;
    return (
      <>
        <label htmlFor={`zone-${index}`}>Zone</label>
        <input id={`zone-${index}`} value={site.zone} onChange={(e) => update({ ...site, zone: e.target.value.trim() })} aria-invalid={site.zone === ''} />
        <label htmlFor={`machine-${index}`}>Machine type</label>
        <input id={`machine-${index}`} value={site.machineType} onChange={(e) => update({ ...site, machineType: e.target.value.trim() })} aria-invalid={site.machineType === ''} />
        <span className="muted small catalog-note" role="status">
          {note}
        </span>
      </>
    );
  }
  // Remounted once the zone is filled in, so the region picker starts on that zone's region.
  return <CatalogPickers key={site.zone === '' ? 'unset' : 'set'} index={index} site={site} update={update} catalog={catalog} />;
}

function CatalogPickers({ index, site, update, catalog }: { index: number; site: CloudSite; update(site: CloudSite): void; catalog: CloudCatalog }) {
  const regionOf = (zone: string) => catalog.regions.find((r) => r.zones.includes(zone))?.name;
  const [region, setRegion] = useState(() => regionOf(site.zone) ?? (site.zone === '' ? (catalog.regions[0]?.name ?? OTHER) : OTHER));
  const [typingZone, setTypingZone] = useState(() => site.zone !== '' && regionOf(site.zone) === undefined);
  const known = catalog.machineTypes.find((m) => m.name === site.machineType);
  const [typingType, setTypingType] = useState(() => site.machineType !== '' && !known);
  const zones = catalog.regions.find((r) => r.name === region)?.zones ?? [];
  const families = [...new Set(catalog.machineTypes.map((m) => m.family ?? 'other'))];

  return (
    <>
      <label htmlFor={`region-${index}`}>Region</label>
      <select
        id={`region-${index}`}
        value={region}
        onChange={(e) => {
          const next = e.target.value;
          setRegion(next);
          const first = catalog.regions.find((r) => r.name === next)?.zones[0];
          setTypingZone(first === undefined);
          if (first !== undefined) update({ ...site, zone: first });
        }}
      >
        {catalog.regions.map((r) => (
          <option key={r.name} value={r.name}>
            {r.name}
          </option>
        ))}
        <option value={OTHER}>other…</option>
      </select>
      <label htmlFor={`zone-${index}`}>Zone</label>
      <select
        id={`zone-${index}`}
        value={typingZone ? OTHER : site.zone}
        onChange={(e) => {
          if (e.target.value === OTHER) setTypingZone(true);
          else {
            setTypingZone(false);
            update({ ...site, zone: e.target.value });
          }
        }}
      >
        {zones.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
        <option value={OTHER}>another zone (type it)…</option>
      </select>
      {typingZone && (
        <label>
          Zone name <input value={site.zone} onChange={(e) => update({ ...site, zone: e.target.value.trim() })} aria-invalid={site.zone === ''} />
        </label>
      )}
      <label htmlFor={`machine-${index}`}>Machine type</label>
      <select
        id={`machine-${index}`}
        value={typingType ? OTHER : site.machineType}
        onChange={(e) => {
          if (e.target.value === OTHER) setTypingType(true);
          else {
            setTypingType(false);
            update({ ...site, machineType: e.target.value });
          }
        }}
      >
        {families.map((family) => (
          <optgroup key={family} label={family}>
            {catalog.machineTypes
              .filter((m) => (m.family ?? 'other') === family)
              .map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name}
                  {machineFacts(m) ? ` — ${machineFacts(m)}` : ''}
                </option>
              ))}
          </optgroup>
        ))}
        <option value={OTHER}>another machine type (type it)…</option>
      </select>
      {typingType && (
        <label>
          Machine type name <input value={site.machineType} onChange={(e) => update({ ...site, machineType: e.target.value.trim() })} aria-invalid={site.machineType === ''} />
        </label>
      )}
      <span className="muted small catalog-note" data-testid={`catalog-note-${index}`}>
        {site.cloud} catalog of {catalog.date}: {catalog.regions.length} regions, {catalog.machineTypes.length} machine types
        {known && machineFacts(known)
          ? ` · ${known.name}: ${machineFacts(known)}`
          : site.machineType !== ''
            ? ` · ${site.machineType} is not in the catalog (the cloud decides whether it exists)`
            : ''}
      </span>
    </>
  );
}
