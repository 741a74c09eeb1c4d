import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');
export const MOTO_AMIS = fileURLToPath(new URL('../__fixtures__/moto-amis.json', import.meta.url));

export interface MotoServer {
  readonly endpoint: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * moto's EC2/STS server on 127.0.0.1 at a free port (moto binds port 0 and
 * prints the one it got), serving the fixture Ubuntu images. `scripts/moto.sh`
 * makes the venv on first use.
 */
export async function startMoto(): Promise<MotoServer> {
  const bin = execFileSync(resolve(repoRoot, 'scripts/moto.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .at(-1)!;
  const child = spawn(bin, ['-H', '127.0.0.1', '-p', '0'], {
    env: { ...process.env, MOTO_AMIS_PATH: MOTO_AMIS, MOTO_EC2_LOAD_DEFAULT_AMIS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolvePort, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`moto_server did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`moto_server exited with ${code}: ${output}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Environment for talking to moto: fake credentials, no instance metadata lookups, loopback only. */
export function motoEnv(endpoint: string): Record<string, string> {
  return {
    NETBENCH_AWS_ENDPOINT: endpoint,
    NETBENCH_AWS_REGIONS: 'us-east-1,eu-west-1',
    NETBENCH_SSH_FROM: '198.51.100.7/32',
    NETBENCH_MY_IP_URL: 'http://127.0.0.1:9/',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}
