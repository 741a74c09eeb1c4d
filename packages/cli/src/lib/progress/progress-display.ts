import type { NetbenchEvent } from '@netbench/plugin-api';
import { plainProgress } from './plain-progress.js';
import { TtyProgress } from './tty-progress.js';

export interface ProgressDisplay {
  start(): void;
  handle(event: NetbenchEvent): void;
  stop(): void;
}

/** `auto` draws a live status line on a terminal and plain lines when piped. */
export function progressDisplay(mode: 'auto' | 'tty' | 'plain' | 'none'): ProgressDisplay {
  const resolved = mode === 'auto' ? (process.stderr.isTTY ? 'tty' : 'plain') : mode;
  if (resolved === 'tty') {
    const tty = new TtyProgress(process.stderr);
    return { start: () => tty.start(), handle: tty.handle, stop: () => tty.stop() };
  }
  if (resolved === 'plain') return { start() {}, handle: plainProgress(process.stderr), stop() {} };
  return { start() {}, handle() {}, stop() {} };
}
