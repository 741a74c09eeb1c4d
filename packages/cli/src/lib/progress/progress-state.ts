import type { NetbenchEvent } from '@netbench/plugin-api';
import { formatQuantity, metricName } from '@netbench/report/units';

/** What a progress display needs to know, folded from the event stream. */
export class ProgressState {
  phase = 'starting';
  total = 0;
  finished = 0;
  failed = 0;
  current = new Map<string, { label: string; index: number; started: number; estimated: number; fraction: number; latest?: string }>();
  private runStarted = Date.now();
  private executeStarted: number | undefined;
  private estimatedTotal = 0;
  private estimatedDone = 0;

  apply(event: NetbenchEvent): void {
    switch (event.type) {
      case 'run-started':
        this.runStarted = event.time;
        this.total = event.trials;
        this.estimatedTotal = event.estimatedSeconds;
        break;
      case 'phase-started':
        this.phase = event.phase;
        if (event.phase === 'execute') this.executeStarted = event.time;
        break;
      case 'trial-started':
        this.total = event.total;
        this.current.set(event.trial, {
          label: `${event.tool} ${event.test}${event.attempt > 0 ? ` (retry ${event.attempt})` : ''}`,
          index: event.index,
          started: event.time,
          estimated: event.estimatedSeconds,
          fraction: 0,
        });
        break;
      case 'trial-progress': {
        const trial = this.current.get(event.trial);
        if (trial) trial.fraction = event.fraction;
        break;
      }
      case 'trial-interval': {
        // The latest live value (ctx.interval): `RTT 0.062 ms`, `Interval Throughput 9.38 Gbit/s`.
        const trial = this.current.get(event.trial);
        const last = event.samples.at(-1);
        if (trial && last) trial.latest = `${metricName(last.metric)} ${formatQuantity(last.value, last.unit)}`;
        break;
      }
      case 'trial-finished': {
        const trial = this.current.get(event.trial);
        this.estimatedDone += trial?.estimated ?? 0;
        this.current.delete(event.trial);
        this.finished += 1;
        if (event.status === 'failed') this.failed += 1;
        break;
      }
      default:
        break;
    }
  }

  elapsedSeconds(now = Date.now()): number {
    return (now - this.runStarted) / 1000;
  }

  /** Seconds left in execute, scaled by how long finished trials really took against their estimate. */
  etaSeconds(now = Date.now()): number | undefined {
    if (this.phase !== 'execute' || this.executeStarted === undefined) return undefined;
    const running = [...this.current.values()].reduce((sum, t) => sum + t.estimated * Math.min(1, t.fraction), 0);
    const done = this.estimatedDone + running;
    const remaining = Math.max(0, this.estimatedTotal - done);
    const spent = (now - this.executeStarted) / 1000;
    const pace = done > 0 ? Math.max(1, spent / done) : 1;
    return remaining * pace;
  }
}
