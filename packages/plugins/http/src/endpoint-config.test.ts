import { describe, expect, it } from 'vitest';
import { abArgv, ohaArgv, wrkArgv } from './argv.js';
import { nginxConfig } from './nginx-config.js';
import { httpSchema } from './schema.js';
import { httpTrials } from './trials.js';

const DIR = '/tmp/netbench-http-r1.abcdEFGH';

describe('nginxConfig', () => {
  it('keeps pid, logs and every temp path inside the private directory', () => {
    const config = nginxConfig({ dir: DIR, port: 18080, tls: false, keepalive: true, workers: 2, connections: 10 });
    for (const directive of ['pid', 'error_log', 'client_body_temp_path', 'proxy_temp_path', 'fastcgi_temp_path', 'uwsgi_temp_path', 'scgi_temp_path', 'root']) {
      expect(config).toMatch(new RegExp(`^\\s*${directive} ${DIR.replaceAll('.', '\\.')}/`, 'm'));
    }
    expect(config).toMatch(/^daemon off;$/m);
    expect(config).toMatch(/^\s*access_log off;$/m);
    expect(config).toMatch(/^worker_processes 2;$/m);
    expect(config).toMatch(/^\s*listen 18080 backlog=511;$/m);
    expect(config).not.toMatch(/ssl/);
  });

  it('turns keep-alive off on the server and serves TLS with the per-trial certificate', () => {
    const config = nginxConfig({ dir: DIR, port: 18081, tls: true, keepalive: false, workers: 1, connections: 1000 });
    expect(config).toMatch(/keepalive_timeout 0;/);
    expect(config).toMatch(/listen 18081 ssl backlog=1000;/);
    expect(config).toMatch(new RegExp(`ssl_certificate ${DIR.replaceAll('.', '\\.')}/cert\\.pem;`));
    expect(config).toMatch(/worker_connections 2128;/);
  });

  it('refuses a directory that could break out of a directive', () => {
    expect(() => nginxConfig({ dir: '/tmp/x; include /etc/passwd', port: 1, tls: false, keepalive: true, workers: 1, connections: 1 })).toThrow(/cannot hold safely/);
  });
});

describe('trials and argv', () => {
  const trialsOf = (block: Record<string, unknown>) => httpTrials(httpSchema.parse(block));

  it('multiplies generator × scheme × keep-alive × connections × size, and rates for oha only', () => {
    expect(trialsOf({ generator: ['ab', 'wrk'], connections: [1, 10], size: [0, '1M'], keepalive: [true, false], scheme: ['http', 'https'] })).toHaveLength(32);
    const trials = trialsOf({ generator: ['wrk', 'oha'], rate: [100, 200, 400] });
    expect(trials.map((t) => `${t.test}:${t.params.rate ?? '-'}`)).toEqual(['wrk:-', 'oha:100', 'oha:200', 'oha:400']);
    expect(trialsOf({ size: '100K' })[0]!.params.size).toBe(102_400);
  });

  it('builds argv arrays with -- before the URL and no shell', () => {
    const [ab] = trialsOf({ generator: 'ab', connections: 1000, requests: 10_000, keepalive: false, clientCpus: '1' });
    // Under the names every tool's pinning has in params (so labels, series keys and the engine's placement warning).
    expect(ab!.params).toMatchObject({ cpu_client: '1' });
    expect(abArgv(ab!.params, 'http://h:1/x;rm -rf /')).toEqual(['taskset', '-c', '1', 'ab', '-n', '10000', '-c', '1000', '-s', '10', '-r', '--', 'http://h:1/x;rm -rf /']);
    const [wrk] = trialsOf({ generator: 'wrk', connections: 1, threads: 4, keepalive: false });
    expect(wrkArgv(wrk!.params, 'http://h:1/')).toEqual([
      'wrk',
      '-t',
      '1',
      '-c',
      '1',
      '-d',
      '10s',
      '--timeout',
      '10s',
      '--latency',
      '-H',
      'Connection: close',
      '--',
      'http://h:1/',
    ]);
    const [oha] = trialsOf({ generator: 'oha', rate: 500, duration: 3 });
    expect(ohaArgv('/x/oha', oha!.params, 'https://h:1/')).toEqual([
      '/x/oha',
      '-z',
      '3s',
      '-c',
      '10',
      '-q',
      '500',
      '--latency-correction',
      '-t',
      '10s',
      '-w',
      '--no-tui',
      '--output-format',
      'json',
      '--insecure',
      '--',
      'https://h:1/',
    ]);
  });

  it('with url, starts no endpoint: no scheme, size or workers in the trial', () => {
    const [trial] = trialsOf({ url: 'http://{server}:8080/api' });
    expect(trial!.params).toMatchObject({ url: 'http://{server}:8080/api' });
    expect(trial!.params).not.toHaveProperty('size');
    expect(trial!.params).not.toHaveProperty('workers');
  });
});
