/**
 * PerfKit Benchmarker's BigQuery sample table, field for field as the PKB
 * network whitepaper (section 5.1) lists it, so its queries (REGEXP_EXTRACT
 * on `labels`, `TIMESTAMP_MICROS(CAST(timestamp * 1000000 AS int64))`) and
 * dashboards work on netbench rows unchanged.
 */
export const PKB_SCHEMA_FIELDS = [
  { name: 'unit', type: 'STRING', mode: 'NULLABLE' },
  { name: 'labels', type: 'STRING', mode: 'NULLABLE' },
  { name: 'timestamp', type: 'FLOAT', mode: 'NULLABLE' },
  { name: 'product_name', type: 'STRING', mode: 'NULLABLE' },
  { name: 'test', type: 'STRING', mode: 'NULLABLE' },
  { name: 'official', type: 'BOOLEAN', mode: 'NULLABLE' },
  { name: 'metric', type: 'STRING', mode: 'NULLABLE' },
  { name: 'value', type: 'FLOAT', mode: 'NULLABLE' },
  { name: 'owner', type: 'STRING', mode: 'NULLABLE' },
  { name: 'run_uri', type: 'STRING', mode: 'NULLABLE' },
  { name: 'sample_uri', type: 'STRING', mode: 'NULLABLE' },
] as const;

export type PkbFieldName = (typeof PKB_SCHEMA_FIELDS)[number]['name'];
