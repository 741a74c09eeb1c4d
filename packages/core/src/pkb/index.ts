export { translatePkb } from './translate.js';
export type { PkbTranslation, TranslateOptions } from './translate.js';
export { isPkbConfig, SUPPORTED_BENCHMARKS } from './detect.js';
export { pythonToCel } from './python-expr/to-cel.js';
