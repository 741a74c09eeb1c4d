import { PortPool as ToolPortPool } from '@netbench/plugin-api/tool-kit';

/** Ports handed to the nginx endpoints of this process (default 18080-18179); see PortPool in @netbench/plugin-api/tool-kit. */
export class PortPool extends ToolPortPool {
  constructor(first = 18_080, last = 18_179) {
    super(first, last, 'nginx');
  }
}
