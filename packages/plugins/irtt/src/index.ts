import { irttPlugin } from './plugin.js';

export { irttPlugin, irttFlows } from './plugin.js';
export type { IrttPluginOptions } from './plugin.js';
export { irttSchema } from './schema.js';
export type { IrttParams } from './schema.js';
export { irttTrials } from './trials.js';
export { clientArgv, serverArgv, goDuration } from './trial-settings.js';
export type { IrttTrialSettings } from './trial-settings.js';
export { parseIrttJson } from './parse-result.js';
export type { IrttResult, IrttRoundTrip, IrttDurationStats } from './parse-result.js';
export { parsePacketLine, goDurationMs } from './packet-line.js';
export type { IrttPacketLine } from './packet-line.js';
export { irttSamples, IRTT_METRICS } from './irtt-samples.js';
export { readIrttVersion } from './check.js';
export { sniffIrtt } from './sniff.js';

export default irttPlugin();
