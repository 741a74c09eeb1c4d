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
 */
export class EventLog {
  private seq = 0;
  private fd: number | undefined;
  private readonly listeners: EventSink[] = [];

  constructor(readonly runId: string, file?: string) {
    if (file) this.fd = openSync(file, 'a');
  }

  /** Add a listener. A listener that throws is ignored, so a broken display cannot break a run. */
  listen(sink: EventSink): void {
    this.listeners.push(sink);
  }

  emit(input: EventInput): NetbenchEvent {
    this.seq += 1;
    const event = { ...input, seq: this.seq, time: Date.now(), runId: this.runId } as NetbenchEvent;
    if (this.fd !== undefined) writeSync(this.fd, `${JSON.stringify(event)}\n`);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A consumer's failure is its own; the run and the persisted stream go on.
      }
    }
    return event;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
