import type { LedgerEntry, LedgerPhase, LedgerResource } from '../ledger/types.js';
import type { Ledger } from '../plugin/common.js';

/**
 * The `Ledger` contract in memory, written the way the engine's file ledger
 * writes it: a cloud plugin's tests read `entries` and `pending()` to check
 * that every resource was recorded before it was created.
 */
export class MemoryLedger implements Ledger {
  readonly entries: LedgerEntry[] = [];

  constructor(
    private readonly runId: string,
    private readonly plugin: string,
  ) {}

  private append(phase: LedgerPhase, resource: LedgerResource, error?: string): void {
    this.entries.push({
      seq: this.entries.length + 1,
      time: new Date().toISOString(),
      runId: this.runId,
      plugin: this.plugin,
      phase,
      resource: structuredClone(resource),
      ...(error !== undefined ? { error } : {}),
    });
  }

  async track<T>(resource: LedgerResource, create: () => Promise<T>): Promise<T> {
    this.append('intent', resource);
    try {
      const result = await create();
      this.append('created', resource);
      return result;
    } catch (error) {
      this.append('failed', resource, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  async created(resource: LedgerResource): Promise<void> {
    this.append('created', resource);
  }

  /**
   * What teardown visits, as the engine computes it: each (type, id) once,
   * newest first by first appearance, carried by its latest line.
   */
  pending(): LedgerResource[] {
    const order: string[] = [];
    const latest = new Map<string, LedgerResource>();
    for (const entry of this.entries) {
      const key = `${entry.resource.type}\0${entry.resource.id}`;
      if (!latest.has(key)) order.push(key);
      latest.set(key, entry.resource);
    }
    return order.reverse().map((key) => latest.get(key)!);
  }
}
