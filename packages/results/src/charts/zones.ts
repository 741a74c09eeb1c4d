import type { Labels } from '@netbench/plugin-api';

export interface Endpoints {
  readonly sendingZone?: string;
  readonly receivingZone?: string;
  readonly sendingRegion?: string;
  readonly receivingRegion?: string;
}

const str = (value: Labels[string] | undefined) => (value === undefined || value === '' ? undefined : String(value));

/**
 * Sending and receiving zone of a sample, as PKB names them: its own
 * `sending_zone`/`receiving_zone` labels (imported PKB results), else the
 * client's and server's zones, swapped for `direction: reverse` (the server
 * sends: ping from the server, iperf3 -R).
 */
export function endpointsOf(labels: Labels): Endpoints {
  const reverse = labels['direction'] === 'reverse';
  const [from, to] = reverse ? ['server', 'client'] : ['client', 'server'];
  const sendingZone = str(labels['sending_zone']) ?? str(labels[`${from}_zone`]);
  const receivingZone = str(labels['receiving_zone']) ?? str(labels[`${to}_zone`]);
  return {
    sendingZone,
    receivingZone,
    sendingRegion: str(labels['sending_region']) ?? str(labels[`${from}_region`]) ?? regionOfZone(sendingZone),
    receivingRegion: str(labels['receiving_region']) ?? str(labels[`${to}_region`]) ?? regionOfZone(receivingZone),
  };
}

const GCP_ZONE_RE = /^([a-z]+-[a-z]+\d+)-[a-z]$/; // us-west1-a
const AWS_ZONE_RE = /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)[a-z]$/; // us-east-1a

/** The region of a GCP or AWS zone name; other names are their own region. */
export function regionOfZone(zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  return GCP_ZONE_RE.exec(zone)?.[1] ?? AWS_ZONE_RE.exec(zone)?.[1] ?? zone;
}
