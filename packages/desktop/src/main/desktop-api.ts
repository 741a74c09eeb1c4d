import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CostLimitError, listPlugins, type PluginResolver, type RegistryOptions, type RootInput, SpecError } from '@netbench/core';
import { defaultRunsDir, NetbenchError, netbenchHome } from '@netbench/plugin-api';
import { defaultStorePath } from '@netbench/results';
import type { BridgeApi } from '../shared/bridge-types.js';
import { checkSpecText } from './check-spec-text.js';
import { generateSpec } from './generate-spec.js';
import {
  compareStoredRuns,
  compareStoredSelections,
  exportStoredComparison,
  exportStoredRun,
  listStoredRuns,
  overlayStoredRuns,
  showStoredRun,
  storedRunSpec,
  trendStored,
} from './results-access.js';
import { RunControl, type RunFunction } from './run-control.js';
import { type ChooseSavePath, saveRendererFile } from './save-file.js';
import { SpecChecker } from './spec-checker.js';
import { listSpecs, readSpec, type SpecFolders, saveSpec } from './spec-files.js';
import { storeLabels } from './store-labels.js';
import { cloudCatalog, schemaFields, wizardCatalog } from './wizard-catalog.js';
import { wizardChecks } from './wizard-checks.js';
import { preflightSpec } from './wizard-preflight.js';

export interface DesktopApiOptions {
  readonly registry: PluginResolver;
  readonly version: string;
  readonly shell: 'electron' | 'browser';
  /** Results store; default `$NETBENCH_DB` / `~/.netbench/netbench.db`. */
  readonly db?: string;
  readonly runsDir?: string;
  /** Saved specs; default `~/.netbench/specs`. */
  readonly specsDir?: string;
  /** Example specs; default the repository's `examples/`. */
  readonly examplesDir?: string;
  /** Roots whose package.json declares plugins, for the plugins page (as `netbench plugins list`). */
  readonly searchDirs?: readonly RootInput[];
  /** Stand-in for core's runSpec (benches replay recorded events). */
  readonly run?: RunFunction;
  /**
   * Electron: the save dialog behind `saveFile`. Without it (the browser)
   * `saveFile` is refused: the page saves through the browser's downloads.
   */
  readonly chooseSavePath?: ChooseSavePath;
  /**
   * Check specs (the editor's keystrokes, a run's start) in a worker thread
   * with a registry made from these options, off the server's event loop
   * (`netbench ui`, Electron). Without it they are checked with `registry`
   * in this thread (tests with stand-in registries).
   */
  readonly checkWorker?: RegistryOptions;
}

export interface DesktopApi {
  readonly api: BridgeApi;
  readonly runs: RunControl;
  /** Cancel running runs and wait for their teardown. */
  dispose(): Promise<void>;
}

/** `examples/` of the checkout this package sits in (packages/desktop/dist/main → repo root). */
export function defaultExamplesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../../examples');
}

/**
 * The main process's half of the bridge: every call the renderer can make,
 * each one a core function (the same ones the CLI commands call). Arguments
 * arrive already validated by `dispatchCall`.
 */
export function createDesktopApi(options: DesktopApiOptions): DesktopApi {
  const folders: SpecFolders = {
    examplesDir: options.examplesDir ?? defaultExamplesDir(),
    specsDir: options.specsDir ?? join(netbenchHome(), 'specs'),
  };
  const runs = new RunControl({
    registry: options.registry,
    netbenchVersion: options.version,
    ...(options.db !== undefined ? { db: options.db } : {}),
    ...(options.runsDir !== undefined ? { runsDir: options.runsDir } : {}),
    ...(options.run ? { run: options.run } : {}),
  });
  const { registry, db } = options;
  const checker = options.checkWorker ? new SpecChecker(options.checkWorker) : undefined;
  const checkSpec = (text: string, maxCostUsd?: number) => (checker ? checker.check(text, maxCostUsd) : checkSpecText(registry, text, maxCostUsd));

  const api: BridgeApi = {
    appInfo: async () => ({
      version: options.version,
      shell: options.shell,
      storePath: db ?? defaultStorePath(),
      runsDir: options.runsDir ?? defaultRunsDir(),
      specsDir: folders.specsDir,
    }),
    listSpecs: () => listSpecs(folders),
    readSpec: ({ source, name }) => readSpec(folders, source, name),
    saveSpec: ({ name, text }) => saveSpec(folders, name, text),
    checkSpec: ({ text, maxCostUsd }) => checkSpec(text, maxCostUsd),
    catalog: () => wizardCatalog(registry),
    cloudFields: ({ cloud }) => schemaFields(registry, cloud),
    cloudCatalog: ({ cloud }) => cloudCatalog(registry, cloud),
    generateSpec: async (answers) => ({ text: generateSpec(answers) }),
    wizardChecks: ({ clouds }) => wizardChecks(registry, clouds),
    preflightSpec: ({ text, clouds }) => preflightSpec(registry, text, clouds),
    startRun: async ({ text, maxCostUsd }) => {
      // The same checks as the editor: an invalid spec or one over the cost guard never starts.
      const check = await checkSpec(text, maxCostUsd);
      if (!check.ok) throw new SpecError(check.issues);
      if (check.overBudget) throw new CostLimitError(check.cost.usd, maxCostUsd!);
      return runs.start(text, check.plan.name, maxCostUsd);
    },
    cancelRun: async ({ runId }) => runs.cancel(runId),
    liveRun: async ({ runId }) => runs.live(runId),
    liveCharts: async ({ runId }) => runs.liveCharts(runId),
    activeRuns: async () => runs.active(),
    listRuns: (filter) => listStoredRuns(db, filter),
    showRun: ({ runId }) => showStoredRun(db, runId),
    runSpec: ({ runId }) => storedRunSpec(db, runId),
    compareRuns: ({ baseline, candidate }) => compareStoredRuns(db, baseline, candidate),
    compareSelections: ({ baseline, candidate }) => compareStoredSelections(db, baseline, candidate),
    overlayRuns: ({ runIds }) => overlayStoredRuns(db, runIds),
    storeLabels: () => storeLabels(db),
    trendRuns: (arg) => trendStored(db, arg),
    exportRun: ({ runId, format }) => exportStoredRun(db, runId, format),
    exportComparison: ({ baseline, candidate, format }) => exportStoredComparison(db, baseline, candidate, format),
    saveFile: async (file) => {
      if (!options.chooseSavePath) throw new NetbenchError('saving through the main process is for the Electron app; in a browser the file is downloaded');
      return saveRendererFile(file, options.chooseSavePath);
    },
    listPlugins: async () => listPlugins(options.searchDirs ? { searchDirs: options.searchDirs } : {}),
  };
  return {
    api,
    runs,
    dispose: async () => {
      await checker?.close();
      await runs.dispose();
    },
  };
}
