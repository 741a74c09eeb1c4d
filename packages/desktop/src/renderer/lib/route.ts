import { useEffect, useState } from 'react';

/** Hash routes (`#/results/RUN`): work under Electron's custom protocol and the loopback server alike. */
export function useRoute(): string[] {
  const parse = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
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
