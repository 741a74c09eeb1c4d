import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

/** Decides the answer to each request; gets the request and how many came before it. */
export type Responder = (request: RecordedRequest, index: number) => Reply;

/**
 * A local HTTP server on 127.0.0.1 standing in for bigquery.googleapis.com:
 * records every request (method, path, query, headers, JSON body) and
 * answers what the test's responder says. Not an emulator: it knows nothing
 * of BigQuery, the tests script the exchange.
 */
export class FakeBigQuery {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;

  constructor(private readonly responder: Responder) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const request = { method: req.method ?? '', path: url.pathname, query: url.search, headers: req.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
        const reply = this.responder(request, this.requests.length);
        this.requests.push(request);
        res.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

/** Google's JSON error body (https://cloud.google.com/bigquery/docs/error-messages). */
export function googleError(code: number, reason: string, message: string): Reply {
  return {
    status: code,
    body: {
      error: { code, message, errors: [{ message, domain: 'global', reason }], status: code === 404 ? 'NOT_FOUND' : code === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT' },
    },
  };
}
