import { NetbenchError } from '../errors/index.js';
import type { Host } from '../plugin/host.js';
import type { PortProtocol } from './bound-ports.js';

/**
 * Whether other hosts can reach `port` (`protocol`) on `host`: its
 * `reachablePorts` when it has them (a Kubernetes Service's ports), else any.
 */
export function reachablePort(host: Host, protocol: PortProtocol): (port: number) => boolean {
  const ranges = host.reachablePorts?.filter((r) => r.protocols.includes(protocol));
  if (host.reachablePorts === undefined) return () => true;
  return (port) => ranges!.some((r) => port >= r.first && port <= r.last);
}

/** `5201-5208 tcp/udp, 20000-20015 tcp`: a host's reachable ports as an error names them. */
export function describeReachable(host: Host): string {
  return (host.reachablePorts ?? []).map((r) => `${r.first === r.last ? r.first : `${r.first}-${r.last}`} ${r.protocols.join('/')}`).join(', ') || 'none';
}

/**
 * Refuses, before any server is started, a tool whose ports (`first`-`last`)
 * `host` cannot be reached on at all: the trial would start a server nobody
 * can connect to and time out. Not retryable: another attempt picks from the
 * same ports.
 */
export function assertReachableRange(host: Host, tool: string, protocol: PortProtocol, first: number, last: number): void {
  const reachable = reachablePort(host, protocol);
  for (let port = first; port <= last; port++) if (reachable(port)) return;
  throw new NetbenchError(
    `${tool} needs a ${protocol.toUpperCase()} port in ${first}-${last} on ${host.name}, but that host accepts connections only on ${describeReachable(host)}` +
      " (a Kubernetes Service lists its ports: add a `servicePorts` range that covers some of the tool's ports to the pod's host block)",
  );
}
