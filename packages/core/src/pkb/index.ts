export { isPkbConfig, SUPPORTED_BENCHMARKS } from './detect.js';
export { pythonToCel } from './python-expr/to-cel.js';
export type { PkbTranslation, TranslateOptions } from './translate.js';
export { translatePkb } from './translate.js';
