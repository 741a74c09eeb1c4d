// Runs inside a lab namespace (`ip netns exec`): connects to a host with
// @netbench/core's SSH transport (the built one) and prints what it saw as JSON.
//   node ssh-probe.mjs argv '<json options>' '<json args>'   printf '%s\0' ARGS... remotely
//   node ssh-probe.mjs rtt  '<json options>' COUNT            COUNT sequential `true` commands, ms each
import { connectSshHost } from '../../packages/core/dist/index.js';

const [mode, optionsJson, extra] = process.argv.slice(2);
const options = JSON.parse(optionsJson);
const began = performance.now();
const host = await connectSshHost(options);
const out = { connectMs: performance.now() - began };
try {
  if (mode === 'argv') {
    const result = await host.exec(['printf', '%s\\0', ...JSON.parse(extra)]);
    Object.assign(out, { code: result.code, args: result.stdout.split('\0').slice(0, -1), stderr: result.stderr });
  } else if (mode === 'rtt') {
    out.rttMs = [];
    for (let i = 0; i < Number(extra); i++) {
      const t = performance.now();
      await host.exec(['true']);
      out.rttMs.push(performance.now() - t);
    }
  }
} finally {
  await host.close();
}
process.stdout.write(JSON.stringify(out));
