import { readFile } from 'node:fs/promises';
import type { LedgerEntry } from './types.js';

/**
 * Read `ledger.jsonl`. A missing file is an empty ledger (the run created
 * nothing); a torn last line from a crash mid-write is skipped.
 */
export async function readLedger(file: string): Promise<LedgerEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as LedgerEntry);
    } catch {
      // Only a crash mid-write makes an unreadable line; it recorded nothing whole.
    }
  }
  return entries;
}
