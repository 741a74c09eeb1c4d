import { posix } from 'node:path';
import type { ExecResult, Host, TrialContext, TrialOutput, TrialRun } from '@netbench/plugin-api';
import { NetbenchError, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import type { PortPool } from '@netbench/plugin-api/tool-kit';
import { assertHostAddress, readAffinity, readSpecFile, runToolClient, trialDeadline } from '@netbench/plugin-api/tool-kit';
import { abArgv, endpointUrl, ohaArgv, wrkArgv } from './argv.js';
import { findOha, OHA_INSTALL_HINT } from './check.js';
import { type ClientDir, makeClientDir } from './client-dir.js';
import { type Endpoint, startEndpoint } from './endpoint.js';
import type { HttpResult } from './http-result.js';
import { httpSamples } from './http-samples.js';
import { parseAb, parseAbPercentilesCsv } from './parse-ab.js';
import { parseOha } from './parse-oha.js';
import { parseWrk } from './parse-wrk.js';
import { generatorAffinity } from './placement.js';
import { type HttpTrialSettings, objectPath } from './trial-settings.js';

const AB_CSV = 'ab-percentiles.csv';
// ab and wrk print why they gave up on one line: `apr_socket_recv: Connection refused (111)`, `unable to connect to h:p Connection refused`.
const GAVE_UP_RE = /(apr_\w+: [^\n]*\(\d+\)|unable to connect to [^\n]*)/;

/**
 * One HTTP trial: nginx in a private directory on the server host (or the
 * user's URL), the generator on the client host, nginx stopped and its
 * directory removed afterwards whatever happened. Raw output is saved before
 * it is parsed. A trial in which no request got any answer fails (refused,
 * unreachable, every request timed out); answers that are not 2xx are
 * errors in the samples, not successes.
 */
export async function runHttp(trial: TrialRun<HttpTrialSettings>, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  const settings = trial.params;
  // The address goes into a URL and an argv: refuse one that is not a host name or IP before anything starts.
  assertHostAddress(trial.target, 'http target');
  assertRunnable(settings);
  // wrk runs the script as Lua (os.execute too) on the client host: only the runner's own file under the spec's folder, read before anything starts.
  const scriptText = settings.script === undefined ? undefined : await readSpecFile(settings.script, ctx.specDir, 'wrk script');
  const { signal, failure } = trialDeadline(ctx, `http trial ${trial.id}`);
  let endpoint: Endpoint | undefined;
  let clientDir: ClientDir | undefined;
  try {
    const oha = settings.generator === 'oha' ? await findOha(trial.client, signal) : undefined;
    if (settings.generator === 'oha' && oha === undefined) {
      throw new ToolMissingError('oha', trial.client.name, OHA_INSTALL_HINT);
    }
    let url: string;
    if (settings.url !== undefined) {
      url = settings.url.replace('{server}', trial.target.includes(':') ? `[${trial.target}]` : trial.target);
    } else {
      const size = settings.size ?? 0;
      endpoint = await startEndpoint(
        trial.server,
        ports,
        {
          runId: ctx.runId,
          sizes: [size],
          tls: settings.scheme === 'https',
          keepalive: settings.keepalive,
          workers: settings.workers ?? 1,
          connections: settings.connections,
          ...(settings.cpu_server !== undefined ? { cpus: settings.cpu_server } : {}),
        },
        signal,
      );
      url = endpointUrl(settings.scheme ?? 'http', trial.target, endpoint.port, settings.path ?? objectPath(size));
    }
    let argv: string[];
    if (settings.generator === 'ab' || settings.script !== undefined) clientDir = await makeClientDir(trial.client, ctx.runId, signal);
    if (settings.generator === 'ab') {
      argv = abArgv(settings, url);
      // Percentiles to the microsecond (the report's table is in whole ms): `-e FILE` before the URL.
      argv.splice(argv.indexOf('-r'), 0, '-e', `${clientDir!.path}/${AB_CSV}`);
    } else if (settings.generator === 'wrk') {
      const script = scriptText === undefined ? undefined : await clientDir!.write('script.lua', scriptText);
      argv = wrkArgv(settings, url, script);
    } else {
      argv = ohaArgv(oha!.command, settings, url);
    }
    const rawName = settings.generator === 'oha' ? 'oha.json' : `${settings.generator}.txt`;
    // Where each end runs (clientCpus/serverCpus pin them), read back from /proc: cpu_client_affinity, cpu_server_affinity.
    // nginx's before the load starts, the generator's the moment it has exec'd: no probe runs later in the measurement.
    const placement: Record<string, string> = {};
    if (endpoint) placement['cpu_server_affinity'] = (await nginxAffinity(trial.server, endpoint.dir, signal)) ?? 'unknown';
    const result = await runToolClient(trial.client, argv, ctx, {
      signal,
      stdoutName: rawName,
      stderrName: `${settings.generator}.stderr.txt`,
      ...(settings.duration !== undefined && settings.generator !== 'ab' ? { seconds: settings.duration } : {}),
      onStart: async (client) => {
        placement['cpu_client_affinity'] = (await generatorAffinity(trial.client, client.pid, posix.basename(oha?.command ?? settings.generator), signal)) ?? 'unknown';
      },
    });
    if (signal.aborted) throw failure(signal.reason);
    let parsed = parseResult(settings, result, trial, rawName);
    if (settings.generator === 'ab') {
      const csv = await clientDir!.read(AB_CSV);
      if (csv !== undefined && csv.trim() !== '') {
        await ctx.saveRaw(AB_CSV, csv);
        parsed = { ...parsed, percentiles: withLongest(parseAbPercentilesCsv(csv, AB_CSV), parsed) };
      }
    }
    if (settings.rate !== undefined) parsed = { ...parsed, offeredRate: settings.rate };
    if (parsed.requests === 0) {
      throw new NetbenchError(`${settings.generator} on ${trial.client.name} got no answer from ${url}: ${describeErrors(parsed)}`);
    }
    if (parsed.successes === 0) ctx.log.warn(`http trial ${trial.id}: no request to ${url} succeeded (${describeErrors(parsed)})`);
    ctx.progress(1);
    const version = oha?.version ?? trial.clientInfo.features[settings.generator];
    if (parsed.generatorVersion === undefined && typeof version === 'string') parsed = { ...parsed, generatorVersion: version };
    const endpointLabels: Record<string, string> = endpoint ? { endpoint: 'nginx', nginx_version: String(trial.serverInfo.features.nginx ?? 'unknown') } : { endpoint: 'url' };
    return { samples: httpSamples(parsed, { ...endpointLabels, ...placement }) };
  } catch (error) {
    throw failure(error);
  } finally {
    await clientDir?.remove();
    await endpoint?.stop();
  }
}

/** The CPUs nginx's master (so its workers, which inherit them) may run on: its pid from the endpoint's pid file. */
async function nginxAffinity(host: Host, dir: string, signal: AbortSignal): Promise<string | undefined> {
  const pid = await host.exec(['cat', '--', `${dir}/nginx.pid`], { timeoutMs: 5_000, signal }).catch(() => undefined);
  return pid?.code === 0 ? readAffinity(host, Number(pid.stdout.trim()), signal) : undefined;
}

/** Fail before starting anything on settings the generator cannot run. */
function assertRunnable(settings: HttpTrialSettings): void {
  if (settings.generator === 'ab' && (settings.requests ?? 0) < settings.connections) {
    throw new UnsupportedError(`ab cannot run ${settings.connections} connections for ${settings.requests} requests: requests must be at least connections`);
  }
}

function parseResult(settings: HttpTrialSettings, result: ExecResult, trial: TrialRun<HttpTrialSettings>, rawName: string): HttpResult {
  const said = `${result.stdout}\n${result.stderr}`;
  const gaveUp = GAVE_UP_RE.exec(said)?.[1];
  if (gaveUp !== undefined && settings.generator !== 'oha') {
    throw new NetbenchError(`${settings.generator} on ${trial.client.name} gave up: ${gaveUp.trim()} (exit ${result.code ?? result.signal})`);
  }
  if (result.code !== 0 && result.stdout.trim() === '') {
    throw new NetbenchError(
      `${settings.generator} on ${trial.client.name} failed (exit ${result.code ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
  }
  if (settings.generator === 'ab') return parseAb(result.stdout, rawName);
  if (settings.generator === 'wrk') return parseWrk(result.stdout, rawName);
  return parseOha(result.stdout, rawName);
}

/** The CSV's 1..100 % (0 % is the fastest request, not a percentile of interest); the report's 100 % if the CSV lacks it. */
function withLongest(csv: [number, number][], report: HttpResult): [number, number][] {
  const rows = csv.filter(([p]) => p > 0);
  const longest = report.percentiles.find(([p]) => p === 100);
  return longest && !rows.some(([p]) => p === 100) ? [...rows, longest as [number, number]] : rows;
}

function describeErrors(result: HttpResult): string {
  const kinds = Object.entries(result.errors)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
  return kinds.length > 0 ? `errors: ${kinds.join(', ')}` : 'no responses and no errors counted';
}
