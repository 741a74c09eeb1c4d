const NON_WORD_RE = /[^a-z0-9]+/g;

/** `Average Latency` → `average-latency`. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(NON_WORD_RE, '-')
      .replace(/^-+|-+$/g, '') || 'chart'
  );
}

/** Makes ids unique within one chart list (`x`, `x-2`, ...). */
export class ChartIds {
  private readonly seen = new Map<string, number>();

  next(...parts: readonly string[]): string {
    const base = parts.map(slug).join('-');
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  }
}
