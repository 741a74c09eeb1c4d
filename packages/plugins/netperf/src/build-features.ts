const VERSION_RE = /Netperf version (\S+)/;

/** What `netperf -w 1ms -b 1 -V` says about the build: it parses -w/-b before printing the version. */
export interface VersionProbe {
  readonly version?: string;
  /** `-w` (packet rate control) works: built with --enable-intervals or --enable-spin. */
  readonly intervals: boolean;
  /** `-b` works: built with --enable-burst. */
  readonly burst: boolean;
}

export function readVersionProbe(output: string): VersionProbe {
  return {
    version: VERSION_RE.exec(output)?.[1],
    intervals: !/Packet rate control is not compiled in/.test(output),
    burst: !/Packet burst size is not compiled in/.test(output),
  };
}

/**
 * Build options netperf names at the end of its banner line, e.g.
 * `... AF_INET : histogram : spin interval : demo : first burst 0`.
 */
export function readBannerFeatures(banner: string): { histogram: boolean; demo: boolean; spin: boolean } {
  const tokens = banner
    .split(' : ')
    .slice(1)
    .map((token) => token.trim());
  return {
    histogram: tokens.includes('histogram'),
    demo: tokens.includes('demo'),
    spin: tokens.includes('spin interval'),
  };
}
