import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffIperf } from './sniff.js';

const dir = new URL('./__fixtures__/', import.meta.url);

describe('sniffIperf', () => {
  it('recognises every captured iperf 2 output, client and server, error included', () => {
    const files = readdirSync(dir).filter((f) => f !== 'COMMANDS.txt');
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) expect(sniffIperf(readFileSync(new URL(file, dir), 'utf8')), file).toBe(true);
  });

  it('leaves iperf3 and other tools alone', () => {
    expect(sniffIperf('Connecting to host 10.0.0.2, port 5201\n[  5] local 10.0.0.1 port 4 connected to 10.0.0.2 port 5201\n')).toBe(false);
    expect(sniffIperf('-----------\nServer listening on 5201 (test #1)\n')).toBe(false);
    expect(sniffIperf('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n')).toBe(false);
  });
});
