import type { HostRequest } from '@netbench/plugin-api';
import { UnsupportedError } from '@netbench/plugin-api';
import type { AzureHostConfig } from './host-schema.js';
import { splitZone } from './naming.js';

/**
 * Refuse before anything is created what placement would refuse later: the
 * run has one proximity placement group per location, and VMs in different
 * availability zones cannot share one (Azure answers the second VM's create
 * with an allocation failure after the first is placed).
 */
export function checkPlacement(requests: readonly HostRequest<AzureHostConfig>[]): void {
  const byLocation = new Map<string, { id: string; zone: string }[]>();
  for (const request of requests) {
    if (request.config.placement !== 'proximity') continue;
    const { location, az } = splitZone(request.config.zone);
    if (!az) continue;
    byLocation.set(location, [...(byLocation.get(location) ?? []), { id: request.id, zone: request.config.zone }]);
  }
  for (const [location, hosts] of byLocation) {
    const zones = [...new Set(hosts.map((h) => h.zone))];
    if (zones.length > 1) {
      throw new UnsupportedError(
        `azure hosts ${hosts.map((h) => `${h.id} (${h.zone})`).join(', ')} share the proximity placement group of ${location} but are in different availability zones; ` +
          'a proximity placement group holds VMs of one zone: put them in one zone, or leave out placement: proximity',
      );
    }
  }
}
