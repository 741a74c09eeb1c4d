import type { Branded, ToolPlugin } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { installAptPackage } from '@netbench/plugin-api/tool-kit';
import { APT_PACKAGES, checkHttp } from './check.js';
import { httpSamples } from './http-samples.js';
import { parseHttpOutput } from './parse-output.js';
import { PortPool } from './port-pool.js';
import { runHttp } from './run.js';
import { type HttpParams, httpSchema } from './schema.js';
import { sniffHttp } from './sniff.js';
import type { HttpTrialSettings } from './trial-settings.js';
import { httpTrials } from './trials.js';

const VERSION = '0.1.0';

export interface HttpPluginOptions {
  /** Ports for the per-trial nginx endpoints (default 18080-18179). Plugins made without this share one pool. */
  readonly ports?: { readonly first: number; readonly last: number };
}

const sharedPorts = new PortPool();

/** The `http` tool plugin: nginx on the server host, ab, wrk or oha (constant rate) on the client host. */
export function httpPlugin(options: HttpPluginOptions = {}): Branded<ToolPlugin<HttpParams>> {
  const ports = options.ports ? new PortPool(options.ports.first, options.ports.last) : sharedPorts;
  return definePlugin<ToolPlugin<HttpParams, HttpTrialSettings>>({
    kind: 'tool',
    name: 'http',
    version: VERSION,
    description: 'HTTP load against nginx (or a URL): ab, wrk, and oha at a constant rate with coordinated-omission-corrected latency',
    schema: httpSchema,
    metrics: {
      HTTP_Request_Rate: { role: 'rate', better: 'higher' },
      HTTP_Latency_p50: {
        role: 'latency',
        better: 'lower',
        primary: true,
        percentiles: { p50: 'HTTP_Latency_p50', p90: 'HTTP_Latency_p90', p99: 'HTTP_Latency_p99', 'p99.9': 'HTTP_Latency_p99_9' },
      },
      HTTP_Latency_p99: { role: 'latency', better: 'lower' },
      HTTP_Transfer_Rate: { role: 'throughput', better: 'higher' },
    },
    trials: httpTrials,
    check: checkHttp,
    install: async (host, ctx) => {
      for (const aptPackage of APT_PACKAGES) await installAptPackage(host, aptPackage, ctx);
    },
    run: (trial, ctx) => runHttp(trial, ctx, ports),
    // ab's or wrk's report, or oha's JSON; `test` is the generator, as httpTrials names it.
    parse: (raw, parseOptions) => {
      const result = parseHttpOutput(raw, parseOptions?.source);
      return httpSamples(result, { test: result.generator });
    },
    sniff: sniffHttp,
    // Pinned by the default rule: clientCpus/serverCpus reach params as cpu_client/cpu_server.
    placement: { howToPin: "`clientCpus: '0'`, `serverCpus: '1'`" },
  });
}
