import { PortPool as ToolPortPool } from '@netbench/plugin-api/tool-kit';

/** Ports handed to iperf servers by this process (default 5401-5500); see PortPool in @netbench/core. */
export class PortPool extends ToolPortPool {
  constructor(first = 5401, last = 5500) {
    super(first, last, 'iperf');
  }
}
