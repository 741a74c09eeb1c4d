import { createRequire } from 'node:module';
import type * as Hdr from 'hdr-histogram-js';

let loaded: typeof Hdr | undefined;

/**
 * hdr-histogram-js on first use. A static import would load it (~20 ms of
 * CPU: it carries a WebAssembly build) at the start of every `netbench run`,
 * whose bundle keeps it outside, even for runs that never read a histogram.
 */
export const hdrHistogram = (): typeof Hdr => (loaded ??= createRequire(import.meta.url)('hdr-histogram-js') as typeof Hdr);

export type { Hdr };
