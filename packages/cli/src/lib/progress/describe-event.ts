import type { NetbenchEvent } from '@netbench/plugin-api';

const paint = (code: number, color: boolean) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

/** A human line for an event, or undefined for events that only move the status line. */
export function describeEvent(event: NetbenchEvent, options: { color: boolean }): string | undefined {
  const red = paint(31, options.color);
  const green = paint(32, options.color);
  const yellow = paint(33, options.color);
  const dim = paint(2, options.color);
  switch (event.type) {
    case 'run-started':
      return `run ${event.runId} · ${event.trials} trials on ${event.hosts} hosts · folder ${event.runDir}`;
    case 'phase-finished':
      return dim(`${event.phase} ${event.ok ? 'done' : red('failed')} in ${(event.durationMs / 1000).toFixed(1)} s`);
    case 'host-ready':
      return dim(`host ${event.host} (${event.cloud}) ready at ${event.address}`);
    case 'plugin-call':
      // A tunnel takes seconds to come up (tens in the kernel VM): say so, or prepare looks stuck.
      return event.plugin === 'tunnels'
        ? dim(`tunnel ${event.hook.replace(/^up /, '')} ${event.ok ? 'up' : red('failed')} in ${(event.durationMs / 1000).toFixed(1)} s`)
        : undefined;
    case 'tool-checked':
      return dim(`${event.tool} ${event.version} on ${event.host}`);
    case 'trial-finished': {
      const mark = event.status === 'succeeded' ? green('✓') : event.status === 'failed' ? red('✗') : yellow('-');
      const why = event.error ? ` ${red(event.error.split('\n')[0] ?? '')}` : '';
      return `${mark} ${event.trial} ${(event.durationMs / 1000).toFixed(1)} s, ${event.samples} samples${why}`;
    }
    case 'trial-started':
      return options.color ? undefined : `… ${event.trial} ${event.tool} ${event.test} (${event.index + 1}/${event.total})`;
    case 'warning':
      return yellow(`warning: ${event.plugin ? `[${event.plugin}] ` : ''}${event.message}`);
    case 'error':
      return red(`error: ${event.plugin ? `[${event.plugin}] ` : ''}${event.message}`);
    case 'published':
      return dim(`published ${event.count} samples via ${event.publisher}${event.location ? ` to ${event.location}` : ''}`);
    case 'run-finished':
      return (
        `run ${event.status} in ${(event.durationMs / 1000).toFixed(1)} s` +
        (event.failedTrials ? red(` · ${event.failedTrials} trials failed`) : '') +
        (event.teardownErrors ? red(` · ${event.teardownErrors} teardown errors`) : '')
      );
    default:
      return undefined;
  }
}
