import { useEffect, useState } from 'react';

/** The route in the location's hash (`#/run/RUN` → `['run', 'RUN']`). */
export function currentRoute(): string[] {
  return window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

/** Hash routes (`#/results/RUN`): work under Electron's custom protocol and the loopback server alike. */
export function useRoute(): string[] {
  const parse = currentRoute;
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const update = () => setRoute(parse());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function go(...parts: string[]): void {
  window.location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}
