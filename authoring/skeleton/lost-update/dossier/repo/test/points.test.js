// The visible reproduction check: two workers award points to one account at
// the same time.
//
// Every store call is a round trip on virtual time (see
// test-support/virtual-time.js): one turn of the event loop, so while one
// worker waits the other runs, and the two interleave the same way on every
// run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

test('two awards for one account at once both count', async () => {
  const { roundTrip } = createVirtualTime();
  const store = createMemoryStore({ roundTrip });
  await store.set('points:acct-9', '100');
  const blue = createWorker({ workerId: 'blue', store });
  const green = createWorker({ workerId: 'green', store });

  await Promise.all([
    blue.handle({ orderId: 'order-1', accountId: 'acct-9', points: 10 }),
    green.handle({ orderId: 'order-2', accountId: 'acct-9', points: 5 }),
  ]);

  assert.equal(await store.get('points:acct-9'), '115', 'the balance must be 100 + 10 + 5');
});
