// The visible reproduction check: three page views of one product reach one
// worker at the same time, with nothing cached yet.
//
// Nothing here depends on real time (see test-support/virtual-time.js). The
// pricing service takes 300 ms of virtual time over a quote, and refuses a
// quote asked less than a second after the last one it accepted (a 429), as
// the README says the real one does when its rate is exceeded.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long the pricing service takes over a quote; the README's quotes take 200 to 400 ms. */
const QUOTE_MS = 300;

/** The pricing service accepts one quote a second at most. */
const RATE_WINDOW_MS = 1_000;

test('three concurrent requests for one product all get a price, from one quote', async () => {
  const time = createVirtualTime();
  let accepted = -Infinity;
  let asked = 0;
  const pricing = {
    async quote(sku) {
      asked += 1;
      await time.roundTrip();
      if (time.clock.now() - accepted < RATE_WINDOW_MS) throw new Error('429 Too Many Requests');
      accepted = time.clock.now();
      await time.clock.sleep(QUOTE_MS);
      return { sku, cents: 1_299 };
    },
  };
  const worker = createWorker({ workerId: 'blue', pricing, clock: time.clock });

  const answers = await Promise.all(['req-1', 'req-2', 'req-3'].map((requestId) => worker.handle({ requestId, sku: 'sku-42' })));

  assert.deepEqual(answers.map((a) => a.cents ?? a), [1_299, 1_299, 1_299]);
  assert.equal(asked, 1, `the pricing service was asked ${asked} times`);
});
