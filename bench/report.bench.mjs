import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// A TypeScript fixture, loaded through Node's type stripping (Node >= 22.18 / 23.6).
import { interRegionResults } from '../packages/report/src/__fixtures__/inter-region.ts';
import { cli, line, median, repoRoot, tempDir } from './lib.mjs';

/**
 * `netbench report` of the whitepaper's 20 × 20 inter-region ping matrix
 * (380 trials, 1,900 samples, one HdrHistogram each): the whole command in a
 * fresh process (start-up, load, charts, render, write), for HTML and for PNG.
 */
export default async function report() {
  const runsDir = join(tempDir('netbench-bench-report-'), 'runs');
  const results = interRegionResults();
  mkdirSync(join(runsDir, results.run.runId), { recursive: true });
  writeFileSync(join(runsDir, results.run.runId, 'results.json'), JSON.stringify(results));
  const out = tempDir('netbench-bench-report-out-');
  const run = (args) => cli(['report', results.run.runId, '--runs-dir', runsDir, ...args]);
  run(['--out', join(out, 'warm.html')]); // warm the file cache; every timed run is still a fresh process
  const html = Array.from({ length: 5 }, (_, i) => run(['--out', join(out, `r${i}.html`)]).ms);
  line(`netbench report, 20×20 heatmap, ${results.samples.length.toLocaleString('en-US')} samples → HTML, median of 5`, `${median(html).toFixed(0)} ms`, '≤ 1000 ms');
  // What any command that loads core costs (oclif, @netbench/core): the report's own share is the difference.
  const baseline = Array.from({ length: 5 }, () => cli(['plan', join(repoRoot, 'examples/quickstart.yaml')]).ms);
  line('  of which CLI start-up + core (netbench plan quickstart), median of 5', `${median(baseline).toFixed(0)} ms`);
  const png = Array.from({ length: 3 }, (_, i) => run(['--format', 'png', '--out', join(out, `heatmap-${i}.png`)]).ms);
  line('same → PNG (2× scale), median of 3', `${median(png).toFixed(0)} ms`);
  const { renderHtml } = await import('../packages/report/dist/index.js');
  const { chartsFor } = await import('../packages/results/dist/index.js');
  renderHtml([results], chartsFor([results]));
  const inProcess = Array.from({ length: 5 }, () => {
    const started = performance.now();
    renderHtml([results], chartsFor([results]));
    return performance.now() - started;
  });
  line('in process: chartsFor + renderHtml, warm, median of 5', `${median(inProcess).toFixed(0)} ms`);
}
