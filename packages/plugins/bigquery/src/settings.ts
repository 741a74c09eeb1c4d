import { z } from '@netbench/plugin-api';

// BigQuery's own naming rules (dataset: letters, digits, underscores, ≤ 1024; table: also dashes).
const DATASET_RE = /^[A-Za-z0-9_]{1,1024}$/;
const TABLE_RE = /^[A-Za-z0-9_-]{1,1024}$/;

export const settingsSchema = z.strictObject({
  /** Google Cloud project. Default: the one the credentials belong to. */
  projectId: z.string().min(1).optional(),
  dataset: z.string().regex(DATASET_RE, 'letters, digits and underscores'),
  table: z.string().regex(TABLE_RE, 'letters, digits, underscores and dashes'),
  /** Where a missing dataset is created (e.g. `US`, `europe-west1`). Default: BigQuery's (US). */
  location: z.string().min(1).optional(),
  /** Service-account key file. Default: the SDK's chain (GOOGLE_APPLICATION_CREDENTIALS, gcloud ADC, metadata server). */
  keyFilename: z.string().min(1).optional(),
  /** A service account's key fields inline (prefer keyFilename: specs get shared). */
  credentials: z.strictObject({ client_email: z.string().min(1), private_key: z.string().min(1) }).optional(),
  /** Another endpoint than https://bigquery.googleapis.com (a proxy, a private endpoint, a test server). */
  apiEndpoint: z.url().optional(),
  /** Create the dataset and table (PKB's schema) when missing. */
  createTable: z.boolean().default(true),
  /** Rows per tabledata.insertAll request (BigQuery recommends ≤ 500; hard limit 50,000). */
  batchSize: z.int().min(1).max(10_000).default(500),
  /** The SDK's retries of 429/5xx/rate-limit answers, with exponential back-off. */
  maxRetries: z.int().min(0).max(10).default(3),
});

export type BigQuerySettings = z.infer<typeof settingsSchema>;
