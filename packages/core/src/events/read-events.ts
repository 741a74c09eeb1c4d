import { readFile } from 'node:fs/promises';
import type { NetbenchEvent } from '@netbench/plugin-api';

/** Read a run's `events.jsonl`. A torn last line (the process died mid-write) is skipped. */
export async function readEvents(file: string): Promise<NetbenchEvent[]> {
  const text = await readFile(file, 'utf8');
  const events: NetbenchEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line) as NetbenchEvent);
    } catch {
      // Only the last line can be torn; anything unreadable is not an event.
    }
  }
  return events;
}
