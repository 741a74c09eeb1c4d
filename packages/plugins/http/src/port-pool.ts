import { PortPool as ToolPortPool } from '@netbench/core';

/** Ports handed to the nginx endpoints of this process (default 18080-18179); see PortPool in @netbench/core. */
export class PortPool extends ToolPortPool {
  constructor(first = 18_080, last = 18_179) {
    super(first, last, 'nginx');
  }
}
