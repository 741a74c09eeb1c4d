import { httpPlugin } from './plugin.js';

export type { ErrorKind, HttpResult } from './http-result.js';
export { httpSamples, percentileHistogram } from './http-samples.js';
export { nginxConfig } from './nginx-config.js';
export { parseAb, parseAbPercentilesCsv } from './parse-ab.js';
export { parseOha } from './parse-oha.js';
export { parseHttpOutput } from './parse-output.js';
export { parseWrk } from './parse-wrk.js';
export type { HttpPluginOptions } from './plugin.js';
export { httpPlugin } from './plugin.js';
export { PortPool } from './port-pool.js';
export type { Generator, HttpParams } from './schema.js';
export { GENERATORS, httpSchema, objectBytes } from './schema.js';
export { sniffHttp, whichGenerator } from './sniff.js';
export { httpTrials } from './trials.js';

export default httpPlugin();
