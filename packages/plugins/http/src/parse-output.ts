import { ParseError } from '@netbench/plugin-api';
import type { HttpResult } from './http-result.js';
import { parseAb } from './parse-ab.js';
import { parseOha } from './parse-oha.js';
import { parseWrk } from './parse-wrk.js';
import { whichGenerator } from './sniff.js';

/** ab's report, wrk's report or oha's JSON, whichever `raw` is (what `netbench import` reads). */
export function parseHttpOutput(raw: string, source = '<http output>'): HttpResult {
  switch (whichGenerator(raw)) {
    case 'ab':
      return parseAb(raw, source);
    case 'wrk':
      return parseWrk(raw, source);
    case 'oha':
      return parseOha(raw, source);
    default:
      throw new ParseError('not the output of ab, wrk or oha (--output-format json)', source);
  }
}
