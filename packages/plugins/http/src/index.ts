import { httpPlugin } from './plugin.js';

export { httpPlugin } from './plugin.js';
export type { HttpPluginOptions } from './plugin.js';
export { httpSchema, objectBytes, GENERATORS } from './schema.js';
export type { HttpParams, Generator } from './schema.js';
export { httpTrials } from './trials.js';
export { parseAb, parseAbPercentilesCsv } from './parse-ab.js';
export { parseWrk } from './parse-wrk.js';
export { parseOha } from './parse-oha.js';
export { parseHttpOutput } from './parse-output.js';
export { sniffHttp, whichGenerator } from './sniff.js';
export { httpSamples, percentileHistogram } from './http-samples.js';
export type { HttpResult, ErrorKind } from './http-result.js';
export { nginxConfig } from './nginx-config.js';
export { PortPool } from './port-pool.js';

export default httpPlugin();
