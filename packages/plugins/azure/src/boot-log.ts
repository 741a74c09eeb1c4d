import { get } from 'node:https';

/**
 * Download a boot diagnostics blob by its SAS URI (a plain HTTPS GET to the
 * storage account, no Azure credential). `ca` adds trusted certificates
 * (the contract tests' local server).
 */
export function downloadBlob(uri: string, signal: AbortSignal, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(uri, { signal, ...(ca ? { ca } : {}) }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        // Not written yet: the log is copied to storage a while after boot.
        if (response.statusCode === 404) resolve('');
        else if ((response.statusCode ?? 500) >= 400) reject(new Error(`boot diagnostics log: HTTP ${response.statusCode}`));
        else resolve(text);
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
