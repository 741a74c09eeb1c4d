/** PKB's unit strings, kept verbatim so PKB dashboards and queries keep working. */
export const MBPS = 'Mbits/sec';
export const TRANSACTIONS_PER_SECOND = 'transactions_per_second';
export const MICROSECONDS = 'us';
