// The visible reproduction check: two transfers between the same two accounts,
// in opposite directions, at the same time.
//
// Every store and lock call is a round trip on virtual time (see
// test-support/virtual-time.js): one turn of the event loop, so while one
// worker waits the other runs, and the two interleave the same way on every
// run. The lock service used here reports a cycle of
// waiting workers as an error, where production would wait for ever.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createLockService } from '../src/memory-locks.js';
import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

test('transfers in opposite directions at once both complete', async () => {
  const { roundTrip } = createVirtualTime();
  const store = createMemoryStore({ roundTrip });
  await store.set('balance:acct-a', '5000');
  await store.set('balance:acct-b', '5000');
  const locks = createLockService({ roundTrip });
  const journal = { append: async (entry) => ({ entry }) };
  const worker = (workerId) => createWorker({ workerId, store, locks: locks.client(workerId), journal });

  await Promise.all([
    worker('blue').handle({ transferId: 'trf-1', from: 'acct-a', to: 'acct-b', amountCents: 700 }),
    worker('green').handle({ transferId: 'trf-2', from: 'acct-b', to: 'acct-a', amountCents: 200 }),
  ]);

  assert.equal(await store.get('balance:acct-a'), '4500');
  assert.equal(await store.get('balance:acct-b'), '5500');
});
