// AWS API calls per provisioned host, against moto's EC2 on loopback: the
// figure netbench controls (fewer calls: faster, cheaper on rate limits).
// Provisions 2 hosts (two zones) and 4 hosts (two zones), up to "running with
// host keys read" (SSH is not attempted: moto's instances are not machines),
// then tears them down from the ledger as `netbench run` would.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { LedgerFile, newRunId, pendingResources } from '@netbench/plugin-api';
import { ApiCallCounter, awsPlugin, hostSchema, readSettings } from '@netbench/plugin-aws';
import { AwsClients, launchFleet } from '@netbench/plugin-aws/runtime';
import { line, repoRoot, tempDir } from './lib.mjs';

async function startMoto() {
  const bin = execFileSync(join(repoRoot, 'scripts/moto.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .at(-1);
  const child = spawn(bin, ['-H', '127.0.0.1', '-p', '0'], {
    env: { ...process.env, MOTO_AMIS_PATH: join(repoRoot, 'packages/plugins/aws/src/__fixtures__/moto-amis.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const match = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`moto_server exited ${code}: ${out}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function provisionOnce(endpoint, zones, counter) {
  const runId = newRunId();
  const runDir = tempDir('nb-aws-bench-');
  const ledgerFile = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  const ctx = { runId, runDir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} }, ledger: ledgerFile.forPlugin('aws') };
  const requests = zones.map((zone, i) => ({ id: `h${i}`, name: `h${i}`, cloud: 'aws', config: hostSchema.parse({ zone, hostKeyWait: 0 }) }));
  const clients = new AwsClients(counter, endpoint);
  counter.reset();
  let started = performance.now();
  await launchFleet(requests, ctx, { clients, settings: readSettings() });
  const provision = { calls: counter.total, ms: performance.now() - started, detail: counter.describe(requests.length) };
  const plugin = awsPlugin({ counter });
  counter.reset();
  started = performance.now();
  for (const entry of pendingResources(ledgerFile.entries)) {
    await plugin.teardown(entry.resource, ctx);
    await ledgerFile.append('aws', 'deleted', entry.resource);
  }
  const teardown = { calls: counter.total, ms: performance.now() - started, detail: counter.describe(requests.length) };
  await ledgerFile.close();
  clients.destroy();
  return { provision, teardown };
}

export default async function bench() {
  const moto = await startMoto();
  Object.assign(process.env, {
    NETBENCH_AWS_ENDPOINT: moto.endpoint,
    NETBENCH_SSH_FROM: '198.51.100.7/32',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  try {
    const counter = new ApiCallCounter();
    await provisionOnce(moto.endpoint, ['us-east-1a'], counter); // warm moto's region backend
    for (const zones of [
      ['us-east-1a', 'us-east-1b'],
      ['us-east-1a', 'us-east-1a', 'us-east-1b', 'us-east-1b'],
    ]) {
      const { provision, teardown } = await provisionOnce(moto.endpoint, zones, counter);
      const n = zones.length;
      line(`provision ${n} hosts (2 zones): API calls per host`, (provision.calls / n).toFixed(1));
      line(`  total calls · wall time on moto`, `${provision.calls} · ${(provision.ms / 1000).toFixed(2)} s`);
      console.log(`    ${provision.detail}`);
      line(`teardown ${n} hosts: API calls per host`, (teardown.calls / n).toFixed(1));
      line(`  total calls · wall time on moto`, `${teardown.calls} · ${(teardown.ms / 1000).toFixed(2)} s`);
      console.log(`    ${teardown.detail}`);
    }
  } finally {
    moto.stop();
  }
}
