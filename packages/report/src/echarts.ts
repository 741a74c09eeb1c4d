import module, { createRequire } from 'node:module';
import type * as ECharts from 'echarts';
import { measureText } from './text-metrics.js';

type EChartsModule = typeof ECharts;
let loaded: EChartsModule | undefined;

/**
 * ECharts, loaded on first use from its single-file bundle: the package's
 * ESM entry is hundreds of small modules and takes ~0.8 s to import, the
 * bundle ~0.1 s, and a third less with V8's compile cache (Node's own,
 * in the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off). The
 * CLI only pays for it when it draws. Text is measured with DejaVu Sans
 * metrics (see text-metrics.ts).
 */
export function echarts(): EChartsModule {
  if (!loaded) {
    module.enableCompileCache?.();
    loaded = createRequire(import.meta.url)('echarts/dist/echarts.min') as EChartsModule;
    loaded.setPlatformAPI({ measureText });
  }
  return loaded;
}
