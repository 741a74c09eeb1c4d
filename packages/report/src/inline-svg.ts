const XMLNS_RE = /\s+xmlns(:xlink)?="[^"]*"/g;
const SIZE_RE = /^<svg width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"/;

/**
 * An SVG document made fit for inline use in HTML: namespace declarations
 * dropped (HTML parsers supply them, and the report must not contain any
 * URL), and scaled to the page width keeping its aspect ratio.
 */
export function inlineSvg(svg: string, title: string): string {
  const withoutNamespaces = svg.replace(XMLNS_RE, '');
  const sized = withoutNamespaces.replace(
    SIZE_RE,
    (_m, w: string, h: string) =>
      `<svg role="img" aria-label="${title.replace(/"/g, '&quot;')}" style="width:100%;max-width:${w}px;height:auto" data-width="${w}" data-height="${h}"`,
  );
  return sized;
}
