import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PgServer {
  readonly port: number;
  /** Folder of the server's unix socket (inside the temp dir). */
  readonly socketDir: string;
  readonly password: string;
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** The server's self-signed certificate (also its CA), when started with TLS. */
  readonly certFile?: string;
  stop(): void;
}

export interface PgServerOptions {
  /** Serve TLS with a self-signed certificate for 127.0.0.1 and localhost. */
  readonly tls?: boolean;
}

/** A free TCP port on loopback (closed again; PostgreSQL binds it right after). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Run as the `postgres` user (setpriv execs, so signals reach the program itself). */
function asPostgres(argv: readonly string[]): string {
  return execFileSync('setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', ...argv], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A real PostgreSQL 15 from Debian in a temp folder: `initdb` as the
 * `postgres` user (password auth over TCP, trust on the socket in the temp
 * folder), `pg_ctl start` on a free loopback port. Call `stop()` (pg_ctl
 * stop, then the folder is removed). Needs root.
 */
export async function startPostgres(options: PgServerOptions = {}): Promise<PgServer> {
  const dir = mkdtempSync(join(tmpdir(), 'nbt-pg-'));
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
  chownSync(dir, uid, gid);
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  chownSync(pwfile, uid, gid);
  const data = join(dir, 'data');
  asPostgres([`${BIN}/initdb`, '-D', data, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync']);
  const settings = ['-c listen_addresses=127.0.0.1', `-k ${dir}`, '-c fsync=off', '-c full_page_writes=off'];
  let certFile: string | undefined;
  if (options.tls) {
    certFile = join(dir, 'server.crt');
    const keyFile = join(dir, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    chownSync(keyFile, uid, gid);
    chownSync(certFile, uid, gid);
    settings.push('-c ssl=on', `-c ssl_cert_file=${certFile}`, `-c ssl_key_file=${keyFile}`);
  }
  const port = await freePort();
  // pg_ctl hands -o to a shell: only our own temp paths and numbers go in it.
  asPostgres([`${BIN}/pg_ctl`, '-D', data, '-o', `-p ${port} ${settings.join(' ')}`, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    port,
    socketDir: dir,
    password,
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    ...(certFile ? { certFile } : {}),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres([`${BIN}/pg_ctl`, '-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
