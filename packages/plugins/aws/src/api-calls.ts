/** Counts AWS API requests (retries included) by operation, to report calls per provisioned host. */
export class ApiCallCounter {
  private readonly counts = new Map<string, number>();

  record(operation: string): void {
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
  }

  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }

  /** Operation → requests, busiest first. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }

  reset(): void {
    this.counts.clear();
  }

  /** `21 API calls (10.5 per host): RunInstances 2, DescribeInstances 2, ...`. */
  describe(hosts?: number): string {
    const perHost = hosts ? ` (${(this.total / hosts).toFixed(1)} per host)` : '';
    const detail = Object.entries(this.snapshot())
      .map(([op, n]) => `${op} ${n}`)
      .join(', ');
    return `${this.total} API calls${perHost}${detail ? `: ${detail}` : ''}`;
  }
}
