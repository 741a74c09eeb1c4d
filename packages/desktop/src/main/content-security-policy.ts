/**
 * The renderer's Content-Security-Policy (HTTP header in the browser, header
 * of the app protocol in Electron, and a meta tag in index.html): scripts
 * only from the app itself (no inline script, no eval), no remote content,
 * no plugins, no framing. Inline *styles* are allowed because ECharts and
 * React position tooltips and charts with style attributes; styles cannot
 * run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
