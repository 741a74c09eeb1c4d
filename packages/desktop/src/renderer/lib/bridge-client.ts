import type { SpecIssue } from '@netbench/core';
import type { BridgeArg, BridgeEnvelope, BridgeEvent, BridgeMethod, BridgeResult, NetbenchBridge } from '../../shared/bridge-types';

export type ConnectionState = 'connecting' | 'open' | 'lost';

/** A failed call: the main process's error name and message, and spec issues when the spec was invalid. */
export class BridgeCallError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly issues?: readonly SpecIssue[],
  ) {
    super(message);
    this.name = errorName;
  }
}

declare global {
  interface Window {
    netbench?: NetbenchBridge;
  }
}

/**
 * The bridge over loopback HTTP (`netbench ui --browser`): calls are JSON
 * POSTs, events arrive over server-sent events. The session cookie was set
 * when the page was opened with its token.
 */
class HttpBridge implements NetbenchBridge {
  private source?: EventSource;
  private readonly listeners = new Set<(event: BridgeEvent) => void>();

  constructor(private readonly setState: (state: ConnectionState) => void) {}

  async call<M extends BridgeMethod>(method: M, arg: BridgeArg<M>): Promise<BridgeEnvelope<BridgeResult<M>>> {
    let res: Response;
    try {
      res = await fetch('api/call', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method, arg }), credentials: 'same-origin' });
    } catch (error) {
      this.setState('lost');
      throw new BridgeCallError('ConnectionLost', `lost the connection to netbench (${(error as Error).message})`);
    }
    if (!res.ok) {
      if (res.status === 401 || res.status === 403) this.setState('lost');
      throw new BridgeCallError('BridgeError', `${res.status}: ${await res.text()}`);
    }
    return (await res.json()) as BridgeEnvelope<BridgeResult<M>>;
  }

  onEvent(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener);
    this.connect();
    return () => this.listeners.delete(listener);
  }

  connect(): void {
    if (this.source) return;
    this.source = new EventSource('api/events');
    this.source.onopen = () => this.setState('open');
    // EventSource retries by itself; until it reconnects the app says the bridge is lost.
    this.source.onerror = () => this.setState('lost');
    this.source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as BridgeEvent;
      for (const listener of this.listeners) listener(event);
    };
  }
}

let state: ConnectionState = 'connecting';
const stateListeners = new Set<(state: ConnectionState) => void>();
function setState(next: ConnectionState): void {
  if (next === state) return;
  state = next;
  for (const listener of stateListeners) listener(state);
}

const http = window.netbench ? undefined : new HttpBridge(setState);
/** Electron's preload bridge when present, else the HTTP one. */
export const bridge: NetbenchBridge = window.netbench ?? http!;
export const shell: 'electron' | 'browser' = window.netbench ? 'electron' : 'browser';
if (window.netbench) state = 'open';
else http!.connect();

export function connectionState(): ConnectionState {
  return state;
}

export function onConnectionState(listener: (state: ConnectionState) => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Call the main process; resolves with the value or throws BridgeCallError. */
export async function call<M extends BridgeMethod>(method: M, arg: BridgeArg<M>): Promise<BridgeResult<M>> {
  const envelope = await bridge.call(method, arg);
  if (envelope.ok) return envelope.value;
  throw new BridgeCallError(envelope.error.name, envelope.error.message, envelope.error.issues);
}
