import { readFile } from 'node:fs/promises';
import type { ConnectionOptions } from 'node:tls';
import { NetbenchError } from '@netbench/plugin-api';
import type { ClientConfig } from 'pg';
import { isUri, parseConninfo } from './conninfo.js';
import { maskUrl, urlPassword } from './mask.js';
import type { PostgresSettings, SslSettings } from './settings.js';

export interface Connection {
  readonly config: ClientConfig;
  /** Where, for messages: the connection string without its password, or the PG* environment. */
  readonly target: string;
  /** Every secret that must never appear in a message. */
  readonly secrets: readonly (string | undefined)[];
  /**
   * Set when the runner's own credentials (PGPASSWORD, ~/.pgpass) must not
   * go to this server: it stands in for them and refuses, with the reason.
   */
  readonly passwordGuard?: () => never;
}

/** Client configuration from the settings; reads the TLS files. */
export async function connection(settings: PostgresSettings, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const url = settings.url ?? env['NETBENCH_POSTGRES_URL'];
  const conninfo = url && !isUri(url) ? parseConninfo(url) : undefined;
  const ssl = await sslOptions(settings.ssl ?? (conninfo?.sslmode ? { mode: sslMode(conninfo.sslmode) } : undefined));
  const config: ClientConfig = {
    ...(url && !conninfo ? { connectionString: url } : {}),
    ...(ssl !== undefined ? { ssl } : {}),
    connectionTimeoutMillis: Math.round(settings.connectTimeout * 1000),
    application_name: 'netbench',
    ...(conninfo ? conninfoConfig(conninfo) : {}),
  };
  const target = url
    ? maskUrl(url)
    : `postgres://${env['PGUSER'] ?? ''}${env['PGUSER'] ? '@' : ''}${env['PGHOST'] ?? 'localhost'}:${env['PGPORT'] ?? '5432'}/${env['PGDATABASE'] ?? ''}`;
  const guard =
    settings.url !== undefined && urlPassword(settings.url) === undefined && !userServers(env).has(endpoint(settings.url, env))
      ? () => {
          throw new NetbenchError(
            `the server at ${target} asks for a password and the url names none; netbench sends PGPASSWORD and ~/.pgpass only to the server NETBENCH_POSTGRES_URL or PGHOST/PGPORT name (a url in a spec or --setting may point anywhere): give a url that holds the password (url: \${env:NAME} or \${file:PATH}), or name this server in NETBENCH_POSTGRES_URL or PGHOST/PGPORT`,
          );
        }
      : undefined;
  return { config, target, secrets: [urlPassword(url), env['PGPASSWORD']], ...(guard ? { passwordGuard: guard } : {}) };
}

/**
 * The servers the runner named outside any spec, as `host:port`: those of
 * NETBENCH_POSTGRES_URL and of PGHOST/PGPORT. Only these get the runner's
 * PGPASSWORD and ~/.pgpass, as the user chose them; a spec is someone else's
 * file and may name a server that would collect them.
 */
export function userServers(env: NodeJS.ProcessEnv): Set<string> {
  const out = new Set<string>();
  const url = env['NETBENCH_POSTGRES_URL'];
  if (url) out.add(endpoint(url, env));
  const hosts = env['PGHOST'];
  if (hosts) {
    const ports = (env['PGPORT'] ?? '').split(',');
    hosts.split(',').forEach((host, i) => out.add(`${host.toLowerCase()}:${ports[i] || ports[0] || '5432'}`));
  }
  return out;
}

/** The `host:port` a connection string names (its gaps filled from PGHOST/PGPORT, as node-postgres does). */
export function endpoint(url: string, env: NodeJS.ProcessEnv): string {
  let host: string | undefined;
  let port: string | undefined;
  if (isUri(url)) {
    try {
      const parsed = new URL(url.trim());
      host = decodeURIComponent(parsed.hostname).replace(/^\[(.*)\]$/, '$1') || parsed.searchParams.get('host') || undefined;
      port = parsed.port || parsed.searchParams.get('port') || undefined;
    } catch {
      // Unparsable here: no host to match, so never a user's server.
      return '';
    }
  } else {
    const c = parseConninfo(url);
    host = c.hostaddr ?? c.host;
    port = c.port;
  }
  return `${(host ?? env['PGHOST'] ?? 'localhost').toLowerCase()}:${port ?? env['PGPORT'] ?? '5432'}`;
}

/** node-postgres reads only URIs: map libpq's keyword/value form onto its fields. */
function conninfoConfig(c: ReturnType<typeof parseConninfo>): ClientConfig {
  const port = c.port === undefined ? undefined : Number(c.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new NetbenchError(`postgres url: port ${c.port} is not a port number`);
  const host = c.hostaddr ?? c.host;
  return {
    ...(host !== undefined ? { host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(c.user !== undefined ? { user: c.user } : {}),
    ...(c.password !== undefined ? { password: c.password } : {}),
    ...(c.dbname !== undefined ? { database: c.dbname } : {}),
    ...(c.connect_timeout !== undefined && Number(c.connect_timeout) > 0 ? { connectionTimeoutMillis: Math.round(Number(c.connect_timeout) * 1000) } : {}),
  };
}

function sslMode(mode: string): SslSettings['mode'] {
  if (mode === 'disable' || mode === 'require' || mode === 'verify-ca' || mode === 'verify-full') return mode;
  // libpq's allow/prefer try TLS and fall back; node-postgres cannot, so they mean no TLS (as its URI parser does for prefer).
  if (mode === 'allow' || mode === 'prefer') return 'disable';
  throw new NetbenchError(`postgres url: sslmode ${mode} is not one of disable, allow, prefer, require, verify-ca, verify-full`);
}

async function sslOptions(ssl: PostgresSettings['ssl']): Promise<ClientConfig['ssl'] | undefined> {
  if (ssl === undefined) return undefined;
  if (ssl === false) return false;
  const s: SslSettings = ssl === true ? { mode: 'verify-full' } : ssl;
  if (s.mode === 'disable') return false;
  const files: ConnectionOptions = {
    ...(s.ca ? { ca: await pem(s.ca, 'ssl.ca') } : {}),
    ...(s.cert ? { cert: await pem(s.cert, 'ssl.cert') } : {}),
    ...(s.key ? { key: await pem(s.key, 'ssl.key') } : {}),
  };
  if (s.mode === 'require') return { ...files, rejectUnauthorized: false };
  // verify-ca checks the chain but not the name, as libpq's sslmode=verify-ca.
  if (s.mode === 'verify-ca') return { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined };
  return { ...files, rejectUnauthorized: true };
}

async function pem(file: string, field: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new NetbenchError(`postgres ${field}: cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
}
