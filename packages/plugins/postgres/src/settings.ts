import { secret, z } from '@netbench/plugin-api';

/** Schema names are pasted into SQL (identifiers cannot be parameters), so they are restricted. */
export const SCHEMA_NAME_RE = /^[a-z_][a-z0-9_]{0,62}$/;

const sslSchema = z.strictObject({
  /**
   * `disable`: no TLS. `require`: TLS without checking the certificate (as
   * libpq's sslmode=require). `verify-ca`: the certificate must be signed by
   * `ca`. `verify-full` (default): and name the host.
   */
  mode: z.enum(['disable', 'require', 'verify-ca', 'verify-full']).default('verify-full'),
  /** PEM file of the CA that signed the server's certificate (default: Node's trusted CAs). */
  ca: z.string().min(1).optional(),
  /** PEM files of a client certificate and its key, for certificate authentication. */
  cert: z.string().min(1).optional(),
  key: z.string().min(1).optional(),
});

export const settingsSchema = z.strictObject({
  /**
   * Connection string `postgres://user@host:port/db`. Default
   * `$NETBENCH_POSTGRES_URL`, else libpq's variables (PGHOST, PGPORT,
   * PGUSER, PGPASSWORD, PGDATABASE). A secret (it may hold a password):
   * never stored or shown; give it as `${env:NAME}` or `${file:/path}`.
   * A url without a password gets PGPASSWORD or ~/.pgpass only when its
   * host and port are those of NETBENCH_POSTGRES_URL or PGHOST/PGPORT.
   */
  url: secret(z.string().min(1)).optional(),
  /** Schema holding the netbench tables (created when missing). */
  schema: z.string().regex(SCHEMA_NAME_RE, 'lower-case letters, digits and _, starting with a letter or _').default('netbench'),
  /** TLS: `true` is `{ mode: verify-full }`, `false` is `{ mode: disable }`. Default: as the connection string says. */
  ssl: z.union([z.boolean(), sslSchema]).optional(),
  /** Seconds to wait for the connection. */
  connectTimeout: z.number().positive().default(10),
});

export type PostgresSettings = z.output<typeof settingsSchema>;
export type SslSettings = z.output<typeof sslSchema>;
