import type { SpecIssue } from '@netbench/core';
import { useMemo, useRef } from 'react';

/**
 * The YAML editor: line numbers, every issue marked on its line (with its
 * message in place under the text), and a list of `line:col path message`
 * entries that move the caret to the problem.
 */
export function SpecEditor({ text, onChange, issues }: { text: string; onChange(text: string): void; issues: readonly SpecIssue[] }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const lines = text.split('\n');
  const byLine = useMemo(() => {
    const map = new Map<number, SpecIssue[]>();
    for (const issue of issues) if (issue.line > 0) map.set(issue.line, [...(map.get(issue.line) ?? []), issue]);
    return map;
  }, [issues]);

  const jump = (issue: SpecIssue) => {
    const el = area.current;
    if (!el || issue.line <= 0) return;
    const offset = lines.slice(0, issue.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, issue.col - 1);
    el.focus();
    el.setSelectionRange(offset, offset);
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || 18;
    el.scrollTop = Math.max(0, (issue.line - 3) * lineHeight);
  };

  return (
    <div className="spec-editor">
      <div className="editor-frame">
        <div className="editor-gutter" ref={gutter} aria-hidden="true">
          {lines.map((_, i) => {
            const problems = byLine.get(i + 1);
            return (
              <div key={i} className={problems ? 'gutter-line gutter-error' : 'gutter-line'} title={problems?.map((p) => p.message).join('\n')}>
                {problems ? '●' : ''}
                {i + 1}
              </div>
            );
          })}
        </div>
        <textarea
          ref={area}
          className="editor-text"
          value={text}
          spellCheck={false}
          aria-label="Spec (YAML)"
          aria-invalid={issues.length > 0}
          aria-describedby="spec-issues"
          onChange={(e) => onChange(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onKeyDown={(e) => {
            // Tab inserts two spaces (YAML indents with spaces); Escape then Tab leaves the editor.
            if (e.key === 'Tab' && !e.shiftKey && !e.altKey && e.currentTarget.dataset['escaped'] !== '1') {
              e.preventDefault();
              const el = e.currentTarget;
              const { selectionStart: s, selectionEnd: end } = el;
              onChange(`${text.slice(0, s)}  ${text.slice(end)}`);
              requestAnimationFrame(() => el.setSelectionRange(s + 2, s + 2));
            }
            e.currentTarget.dataset['escaped'] = e.key === 'Escape' ? '1' : '0';
          }}
        />
      </div>
      <p className="muted small">Tab indents; press Escape then Tab to move on.</p>
      <ul id="spec-issues" className="issue-list" aria-live="polite" data-testid="spec-issues">
        {issues.map((issue, i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => jump(issue)} disabled={issue.line <= 0}>
              {issue.line > 0 ? `${issue.line}:${issue.col}` : 'spec'}
            </button>
            {issue.path && <code>{issue.path}</code>} {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
