/**
 * A one-shot barrier for `count` parties: `arrive()` resolves for everyone
 * at once when the last one arrives, or rejects for everyone waiting (and
 * anyone arriving later) once it is broken.
 */
export class Barrier {
  private arrived = 0;
  private broken: Error | undefined;
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(private readonly count: number) {}

  get released(): boolean {
    return this.arrived >= this.count && this.broken === undefined;
  }

  arrive(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    this.arrived += 1;
    if (this.arrived > this.count) return Promise.reject(new Error('barrier: more arrivals than parties'));
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      // Released in one synchronous loop, so the parties resume back to back.
      if (this.arrived === this.count) for (const party of this.waiting.splice(0)) party.resolve();
    });
  }

  /** Reject every party still waiting and every later arrival. No effect once released. */
  break(error: Error): void {
    if (this.released || this.broken) return;
    this.broken = error;
    for (const party of this.waiting.splice(0)) party.reject(error);
  }
}
