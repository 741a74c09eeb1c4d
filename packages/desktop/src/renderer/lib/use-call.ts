import { useCallback, useEffect, useState } from 'react';
import type { BridgeArg, BridgeMethod, BridgeResult } from '../../shared/bridge-types';
import { call } from './bridge-client';

export interface CallState<T> {
  readonly data?: T;
  readonly error?: Error;
  readonly loading: boolean;
  reload(): void;
}

// Calls started before the page that needs them mounted (see prefetch), by method and key.
const started = new Map<string, Promise<unknown>>();

/**
 * Start a page's call now, before its code (a lazy chunk with ECharts) has
 * loaded: the main process reads the store while the page's code downloads
 * and compiles, instead of after. The page's `useCall` with the same method
 * and key takes the answer, once.
 */
export function prefetch<M extends BridgeMethod>(method: M, arg: BridgeArg<M>, key: string): void {
  const promise = call(method, arg);
  promise.catch(() => {}); // the page that takes it reports the error
  started.set(`${method}\u0000${key}`, promise);
}

/** Drop answers no page took (the route changed again before its page mounted). */
export function forgetPrefetched(): void {
  started.clear();
}

/** Call a bridge method when `key` changes; the page shows loading, the data, or the error — never nothing. */
export function useCall<M extends BridgeMethod>(method: M, arg: BridgeArg<M>, key: string): CallState<BridgeResult<M>> {
  const [state, setState] = useState<{ data?: BridgeResult<M>; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const id = `${method}\u0000${key}`;
    const early = tick === 0 ? (started.get(id) as Promise<BridgeResult<M>> | undefined) : undefined;
    started.delete(id);
    (early ?? call(method, arg)).then(
      (data) => {
        if (live) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (live) setState({ error: error as Error, loading: false });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the argument
  }, [method, key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
