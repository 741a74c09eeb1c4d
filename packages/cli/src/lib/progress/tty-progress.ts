import type { NetbenchEvent } from '@netbench/plugin-api';
import { formatDuration } from '../format/number.js';
import { describeEvent } from './describe-event.js';
import { ProgressState } from './progress-state.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Live display for a terminal: event lines scroll above one redrawn status line. */
export class TtyProgress {
  private readonly state = new ProgressState();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  start(): void {
    this.timer = setInterval(() => this.draw(), 200);
    this.timer.unref();
  }

  handle = (event: NetbenchEvent): void => {
    this.state.apply(event);
    const line = describeEvent(event, { color: true });
    if (line !== undefined) {
      this.clear();
      this.out.write(`${line}\n`);
    }
    this.draw();
  };

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }

  private clear(): void {
    this.out.write('\r\x1b[2K');
  }

  private draw(): void {
    const s = this.state;
    this.frame = (this.frame + 1) % FRAMES.length;
    const parts = [`${FRAMES[this.frame]} ${s.phase}`];
    if (s.total > 0) parts.push(`trial ${Math.min(s.finished + s.current.size, s.total)}/${s.total}`);
    const running = [...s.current.values()].sort((a, b) => a.index - b.index)[0];
    if (running) parts.push(`${running.label} ${Math.round(running.fraction * 100)}%${running.latest ? ` · ${running.latest}` : ''}`);
    parts.push(`elapsed ${formatDuration(s.elapsedSeconds())}`);
    const eta = s.etaSeconds();
    if (eta !== undefined) parts.push(`ETA ${formatDuration(eta)}`);
    if (s.failed > 0) parts.push(`\x1b[31m${s.failed} failed\x1b[0m`);
    const line = parts.join(' · ');
    // A pseudo-terminal without a size (`script`, `docker exec -t` in CI) reports 0 columns: the line was cut to 20 characters.
    const columns = this.out.columns || 100;
    this.out.write(`\r\x1b[2K${line.slice(0, Math.max(20, columns - 1))}`);
  }
}
