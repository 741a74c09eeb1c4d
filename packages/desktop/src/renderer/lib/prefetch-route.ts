import { currentRoute } from './route';
import { forgetPrefetched, prefetch } from './use-call';

/**
 * The calls of the pages whose code loads lazily (run and comparison pages,
 * with ECharts), started as soon as the route is known: opening a run reads
 * the store and loads the page's code at the same time. The arguments and
 * keys are the ones the pages' `useCall`s use.
 */
export function prefetchRoute(route: readonly string[] = currentRoute()): void {
  forgetPrefetched();
  const [section, a, b] = route;
  if (section === 'run' && a) {
    prefetch('showRun', { runId: a }, a);
    prefetch('listRuns', { limit: 50 }, 'recent');
  } else if (section === 'compare' && a && b && a !== 'labels' && route.length === 3) {
    prefetch('compareRuns', { baseline: a, candidate: b }, `${a}/${b}`);
  }
}
