import type { NetbenchEvent } from '@netbench/plugin-api';
import { describeEvent } from './describe-event.js';

/** One plain line per notable event, for pipes and CI logs. */
export function plainProgress(out: NodeJS.WritableStream = process.stderr): (event: NetbenchEvent) => void {
  return (event) => {
    const line = describeEvent(event, { color: false });
    if (line !== undefined) out.write(`${line}\n`);
  };
}
