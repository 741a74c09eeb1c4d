import { describe, expect, it } from 'vitest';
import { checkRequests } from './preflight.js';
import { request } from './test-support/lab.js';

// Issue 19: the qdisc probes (three throw-away namespaces with `tc`) are for shaped links only.
describe('local preflight: what it probes', () => {
  it('checks an unshaped lab with the namespace facts alone: no qdisc probe', async () => {
    const { caps } = await checkRequests('20261128-120000-probe1', [request('client'), request('server')]);
    expect(caps.netns).toBe(true);
    expect(Object.keys(caps.detail).sort()).toEqual(['netns', 'root']);
    expect('tbf' in caps || 'netem' in caps).toBe(false);
  });

  it('still refuses a shaped link the kernel cannot shape, naming host and field', async () => {
    // This kernel has no netem (README: tbf and htb only); where it has, the check passes and says nothing.
    const outcome = await checkRequests('20261128-120000-probe2', [request('client', { link: { delay: '5ms' } }), request('server')]).then(() => 'accepted', (e: unknown) => (e as Error).message);
    expect(outcome === 'accepted' || /host client \(link\.delay\).*netem/.test(outcome), outcome).toBe(true);
  });
});
