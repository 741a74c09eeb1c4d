// The report's stylesheet, inlined: a report is one file with nothing to fetch.
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5b5b60; --rule: #d9d9de; --band: #f5f5f7; --accent: #4477aa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 26px; margin: 8px 0 4px; }
h2 { font-size: 20px; margin: 40px 0 12px; padding-top: 12px; border-top: 1px solid var(--rule); }
h3 { font-size: 16px; margin: 24px 0 8px; }
p.meta, figcaption .notes, .muted { color: var(--muted); }
td.verdict { font-weight: 600; }
td.verdict-better { color: #1a7f37; }
td.verdict-worse { color: #b42318; }
p.warn { color: #9a6700; }
nav ul { margin: 8px 0; padding-left: 20px; columns: 2; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.status-failed { color: #b3261e; font-weight: 600; }
figure { margin: 24px 0; padding: 12px; border: 1px solid var(--rule); border-radius: 8px; }
figure svg { display: block; margin: 0 auto; }
figcaption { margin-top: 8px; font-size: 13px; }
details { margin: 8px 0; }
summary { cursor: pointer; color: var(--accent); }
pre { background: var(--band); padding: 12px; overflow: auto; font-size: 12px; line-height: 1.4; border-radius: 6px; max-height: 480px; }
ul.plain { padding-left: 18px; margin: 4px 0; }
ul.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(230px, 1fr)); gap: 10px; list-style: none; padding: 0; margin: 8px 0 16px; }
li.tile { border: 1px solid var(--rule); border-radius: 8px; padding: 10px 12px; }
li.tile .meta { color: var(--muted); font-size: 12px; }
li.tile dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 6px 0 0; font-size: 13px; }
li.tile dt { color: var(--muted); }
li.tile dd { margin: 0; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; white-space: nowrap; }
li.tile dd.headline { font-size: 18px; }
details.more > summary { font-weight: 600; margin: 16px 0; }
`;
