// `node --import` this to write every module URL the process loads to $NETBENCH_MODULE_LOG at exit.
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';

const urls = [];
registerHooks({ load(url, context, next) { urls.push(url); return next(url, context); } });
process.on('exit', () => { if (process.env.NETBENCH_MODULE_LOG) writeFileSync(process.env.NETBENCH_MODULE_LOG, urls.join('\n')); });
