// `node --import` this to write every module URL the process loads to $NETBENCH_MODULE_LOG at exit,
// then every built-in module Node loaded after start (`builtin:crypto`, `builtin:internal/crypto/hash`).

import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const urls = [];
const atStart = new Set(process.moduleLoadList);
registerHooks({
  load(url, context, next) {
    urls.push(url);
    return next(url, context);
  },
});
process.on('exit', () => {
  if (!process.env.NETBENCH_MODULE_LOG) return;
  const builtins = process.moduleLoadList.filter((m) => !atStart.has(m) && m.startsWith('NativeModule ')).map((m) => `builtin:${m.slice('NativeModule '.length)}`);
  writeFileSync(process.env.NETBENCH_MODULE_LOG, [...urls, ...builtins].join('\n'));
});
