import { RetryableError } from '../errors/index.js';

/**
 * Ports handed to a tool's per-trial servers by this process, so concurrent
 * trials never share one. Allocation goes round the range rather than reusing
 * the lowest free port: a retry after "address in use" then lands on a
 * different port. `tool` names the tool in the "all taken" error.
 */
export class PortPool {
  private readonly taken = new Set<number>();
  private cursor: number;

  constructor(
    readonly first: number,
    readonly last: number,
    readonly tool = 'tool',
  ) {
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last > 65_535 || first > last) {
      throw new RangeError(`bad port range ${first}-${last}`);
    }
    this.cursor = first;
  }

  get size(): number {
    return this.last - this.first + 1;
  }

  /** The next free port, skipping those `busy` says are taken on the server host. */
  acquire(busy: (port: number) => boolean = () => false): number {
    for (let step = 0; step < this.size; step += 1) {
      const port = this.first + ((this.cursor - this.first + step) % this.size);
      if (this.taken.has(port) || busy(port)) continue;
      this.taken.add(port);
      this.cursor = port === this.last ? this.first : port + 1;
      return port;
    }
    throw new RetryableError(`no free ${this.tool} port in ${this.first}-${this.last}: all in use by running trials or other programs`);
  }

  release(port: number): void {
    this.taken.delete(port);
  }
}
