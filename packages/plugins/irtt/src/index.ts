import { irttPlugin } from './plugin.js';

export { readIrttVersion } from './check.js';
export { IRTT_METRICS, irttSamples } from './irtt-samples.js';
export type { IrttPacketLine } from './packet-line.js';
export { goDurationMs, parsePacketLine } from './packet-line.js';
export type { IrttDurationStats, IrttResult, IrttRoundTrip } from './parse-result.js';
export { parseIrttJson } from './parse-result.js';
export type { IrttPluginOptions } from './plugin.js';
export { irttFlows, irttPlugin } from './plugin.js';
export type { IrttParams } from './schema.js';
export { irttSchema } from './schema.js';
export { sniffIrtt } from './sniff.js';
export type { IrttTrialSettings } from './trial-settings.js';
export { clientArgv, goDuration, serverArgv } from './trial-settings.js';
export { irttTrials } from './trials.js';

export default irttPlugin();
