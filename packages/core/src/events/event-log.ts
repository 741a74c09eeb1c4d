import { closeSync, openSync, writeSync } from 'node:fs';
import type { EventInput, NetbenchEvent } from '@netbench/plugin-api';

export type EventSink = (event: NetbenchEvent) => void;

/**
 * The sequenced event stream of one run. Every event gets the next `seq`, is
 * appended to `events.jsonl` and handed to the listener, in that order.
 *
 * Writes are synchronous on purpose: lines land in emission order and are in
 * the file before the engine moves on, so a run killed with SIGKILL still
 * leaves a complete stream up to that point. Lines are small and few.
 *
 * A write that fails (a full disk: ENOSPC; a file system gone read-only)
 * never stops the run: the file is given up, listeners still get every
 * event, and one `warning` says the log is incomplete. Teardown must not
 * depend on the disk.
 */
export class EventLog {
  private seq = 0;
  private fd: number | undefined;
  private readonly listeners: EventSink[] = [];
  /** Why `events.jsonl` stopped being written, once it did. */
  writeError: string | undefined;

  constructor(
    readonly runId: string,
    file?: string,
  ) {
    if (file) this.fd = openSync(file, 'a', 0o600);
  }

  /** Add a listener. A listener that throws is ignored, so a broken display cannot break a run. */
  listen(sink: EventSink): void {
    this.listeners.push(sink);
  }

  emit(input: EventInput): NetbenchEvent {
    this.seq += 1;
    const event = { ...input, seq: this.seq, time: Date.now(), runId: this.runId } as NetbenchEvent;
    let failed = false;
    if (this.fd !== undefined) {
      try {
        writeSync(this.fd, `${JSON.stringify(event)}\n`);
      } catch (error) {
        this.giveUpFile(error);
        failed = true;
      }
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A consumer's failure is its own; the run and the persisted stream go on.
      }
    }
    if (failed) this.emit({ type: 'warning', message: `cannot write events.jsonl (${this.writeError}); the run goes on, but its event log is incomplete from here` });
    return event;
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing cannot lose more than the failed write already did.
    }
    this.fd = undefined;
  }

  private giveUpFile(error: unknown): void {
    this.writeError = writeFailure(error);
    this.close();
  }
}

/** `ENOSPC: no space left on device` and the like, short. */
export function writeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : (message.split(', ')[0] ?? message);
}
