import { createRequire } from 'node:module';
import type * as ECharts from 'echarts';
import { measureText } from './text-metrics.js';

type EChartsModule = typeof ECharts;
let loaded: EChartsModule | undefined;

/**
 * ECharts, loaded on first use from its single-file bundle: the package's
 * ESM entry is hundreds of small modules and takes ~0.8 s to import, the
 * bundle ~0.1 s, and a third less with Node's compile cache when the
 * process has turned it on (the CLI does, in its private cache folder;
 * this module never turns it on itself, whose default folder is the OS temp
 * folder, where anyone can plant a cache entry). The CLI only pays for it
 * when it draws. Text is measured with DejaVu Sans
 * metrics (see text-metrics.ts).
 */
export function echarts(): EChartsModule {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('echarts/dist/echarts.min') as EChartsModule;
    loaded.setPlatformAPI({ measureText });
  }
  return loaded;
}
