// The layers of netbench, checked in CI (`npm run check:imports`):
//   plugin-api ← core ← results ← report ← cli / desktop;  plugins → plugin-api only.
// A package may import only from packages to its left. Tests may also use the
// packages they test against (a plugin's tests may run the engine), so the
// plugin rule applies to shipped code only. Module cycles are refused; folder
// cycles are checked by scripts/check-imports.mjs on this tool's output.
const TESTS = '(?:[.]test[.]ts|[.]test-d[.]ts|/test-support/|/__fixtures__/)';
const layer = (from, to, comment) => ({
  name: `${from}-not-to-${to.replace(/[^a-z-]/g, '')}`,
  comment,
  severity: 'error',
  from: { path: `^packages/${from}/src/` },
  to: { path: `^packages/(?:${to})/` },
});

module.exports = {
  forbidden: [
    layer('plugin-api', 'core|results|report|cli|desktop|plugins', 'the SDK depends on no other netbench package'),
    layer('core', 'results|report|cli|desktop|plugins', 'core depends on the SDK only (plugins are found at run time, not imported)'),
    layer('results', 'report|cli|desktop|plugins', 'results sits below the report and the apps'),
    layer('report', 'cli|desktop|plugins', 'the report renderer sits below the apps'),
    {
      name: 'plugins-only-to-plugin-api',
      comment: 'a plugin ships depending on @netbench/plugin-api only (another plugin it builds on is allowed)',
      severity: 'error',
      from: { path: '^packages/plugins/[^/]+/src/', pathNot: TESTS },
      to: { path: '^packages/(?:core|results|report|cli|desktop)/' },
    },
    {
      name: 'no-module-cycles',
      comment: 'modules import each other in one direction',
      severity: 'error',
      from: { path: '^packages/', pathNot: TESTS },
      to: { circular: true, viaOnly: { pathNot: TESTS }, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'], mainFields: ['types', 'main'] },
  },
};
