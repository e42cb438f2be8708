// The visible reproduction: three checkout pages ask for the EUR rate at the
// same moment, two of them at blue and one at green, with nothing cached (as
// at 14:00:00 on 27 November, when the cached rates ran out).
//
// Nothing here waits for real time (test-support/virtual-time.js): every store
// and Ratewire call is a round trip during which the other requests run, and
// Ratewire takes 300 ms of virtual time over a rate. It allows 2 requests a
// second for our API key, as the README says, and answers 429 over that.
//
// Both workers live in this one test process. In production blue and green are
// separate processes that share only the store.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createRatesWorker } from '../src/worker.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long Ratewire takes over a rate here; the README's requests take 200 to 800 ms. */
const RATEWIRE_MS = 300;

/** Ratewire's plan: 2 requests a second, and a burst of 2. */
const PER_SECOND = 2;

/** A fake Ratewire with the plan's rate limit (a token bucket) on virtual time. */
function fakeRatewire(time) {
  const asked = [];
  let tokens = PER_SECOND;
  let last = time.clock.now();
  return {
    asked,
    async latest(currency) {
      await time.roundTrip();
      const now = time.clock.now();
      tokens = Math.min(PER_SECOND, tokens + ((now - last) * PER_SECOND) / 1000);
      last = now;
      if (tokens < 1) {
        asked.push(`${currency}: 429`);
        throw new Error('429 Too Many Requests');
      }
      tokens -= 1;
      asked.push(`${currency}: 200`);
      await time.clock.sleep(RATEWIRE_MS);
      return { base: 'USD', currency, rate: 0.9231, asOf: new Date(now).toISOString() };
    },
  };
}

test('three pages asking for one currency at once all get its rate, from one Ratewire request', async () => {
  const time = createVirtualTime({ start: Date.parse('2026-11-27T14:00:00.000Z') });
  const store = createMemoryStore({ clock: time.clock, roundTrip: time.roundTrip });
  const ratewire = fakeRatewire(time);
  const blue = createRatesWorker({ workerId: 'blue', store, provider: ratewire, clock: time.clock });
  const green = createRatesWorker({ workerId: 'green', store, provider: ratewire, clock: time.clock });

  const answers = await Promise.all([
    blue.handle({ requestId: 'r-1', currency: 'EUR' }),
    blue.handle({ requestId: 'r-2', currency: 'EUR' }),
    green.handle({ requestId: 'r-3', currency: 'EUR' }),
  ]);

  const seen = answers.map((a) => `${a.requestId}: ${a.status === 'ok' ? a.rate : a.status}`);
  assert.deepEqual(seen, ['r-1: 0.9231', 'r-2: 0.9231', 'r-3: 0.9231'], `the pages got ${seen.join(', ')}; Ratewire answered ${ratewire.asked.join(', ')}`);
  assert.equal(ratewire.asked.length, 1, `Ratewire was asked ${ratewire.asked.length} times for one currency: ${ratewire.asked.join(', ')}`);
});
