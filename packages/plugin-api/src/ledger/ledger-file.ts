import { type FileHandle, open } from 'node:fs/promises';
import { readLedger } from './read-ledger.js';
import type { Ledger, LedgerEntry, LedgerPhase, LedgerResource } from './types.js';

/**
 * The append-only `ledger.jsonl` of one run, shared by every cloud plugin of
 * the run. Each line is written and flushed to disk before the caller goes
 * on, so a resource's intent is on disk before the resource exists.
 */
export class LedgerFile {
  private readonly all: LedgerEntry[];
  // Appends are chained so that file order equals `seq` order even when
  // clouds provision in parallel.
  private tail: Promise<unknown> = Promise.resolve();
  // After a failed write (a full disk) the file may end in a torn line; the next line starts on a new one.
  private torn = false;

  private constructor(
    readonly file: string,
    readonly runId: string,
    private readonly handle: FileHandle,
    existing: LedgerEntry[],
  ) {
    this.all = existing;
  }

  /** Open (or create) a ledger file; existing lines are kept and `seq` continues after them. */
  static async open(file: string, runId: string): Promise<LedgerFile> {
    const existing = await readLedger(file);
    const handle = await open(file, 'a', 0o600);
    return new LedgerFile(file, runId, handle, existing);
  }

  get entries(): readonly LedgerEntry[] {
    return this.all;
  }

  async append(plugin: string, phase: LedgerPhase, resource: LedgerResource, error?: string): Promise<LedgerEntry> {
    const last = this.all.at(-1);
    const entry: LedgerEntry = {
      seq: (last?.seq ?? 0) + 1,
      time: new Date().toISOString(),
      runId: this.runId,
      plugin,
      phase,
      resource,
      ...(error !== undefined ? { error } : {}),
    };
    this.all.push(entry);
    const write = this.tail.then(async () => {
      try {
        await this.handle.appendFile(`${this.torn ? '\n' : ''}${JSON.stringify(entry)}\n`);
        await this.handle.datasync();
        this.torn = false;
      } catch (error) {
        this.torn = true;
        throw error;
      }
    });
    this.tail = write.catch(() => {});
    await write;
    return entry;
  }

  /** The `Ledger` a cloud plugin sees: its own lines only, written under its name. */
  forPlugin(plugin: string): Ledger {
    const ledger = this;
    return {
      async track<T>(resource: LedgerResource, create: () => Promise<T>): Promise<T> {
        await ledger.append(plugin, 'intent', resource);
        let result: T;
        try {
          result = await create();
        } catch (error) {
          await ledger.append(plugin, 'failed', resource, error instanceof Error ? error.message : String(error));
          throw error;
        }
        await ledger.append(plugin, 'created', resource);
        return result;
      },
      async created(resource: LedgerResource): Promise<void> {
        await ledger.append(plugin, 'created', resource);
      },
      get entries(): readonly LedgerEntry[] {
        return ledger.all.filter((e) => e.plugin === plugin);
      },
    };
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle.close();
  }
}
