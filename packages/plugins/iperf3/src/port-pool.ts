import { PortPool as ToolPortPool } from '@netbench/plugin-api/tool-kit';

/** Ports handed to iperf3 servers by this process (default 5201-5300); see PortPool in @netbench/core. */
export class PortPool extends ToolPortPool {
  constructor(first = 5201, last = 5300) {
    super(first, last, 'iperf3');
  }
}
