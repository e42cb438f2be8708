// The visible reproduction check: three page views of one product reach one
// worker at the same time, with nothing cached yet.
//
// The pricing service here answers one quote at a time, after a few turns of
// the event loop, and refuses a quote asked while another is in flight (a
// 429), as the real one does when its rate is exceeded.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createWorker } from '../src/worker.js';

const turns = async (n) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('three concurrent requests for one product all get a price, from one quote', async () => {
  let inFlight = 0;
  let asked = 0;
  const pricing = {
    async quote(sku) {
      asked += 1;
      if (inFlight > 0) throw new Error('429 Too Many Requests');
      inFlight += 1;
      await turns(5);
      inFlight -= 1;
      return { sku, cents: 1_299 };
    },
  };
  const clock = { now: () => 0, sleep: (ms) => turns(ms / 100) };
  const worker = createWorker({ workerId: 'blue', pricing, clock });

  const answers = await Promise.all(['req-1', 'req-2', 'req-3'].map((requestId) => worker.handle({ requestId, sku: 'sku-42' })));

  assert.deepEqual(answers.map((a) => a.cents ?? a), [1_299, 1_299, 1_299]);
  assert.equal(asked, 1, `the pricing service was asked ${asked} times`);
});
