// The visible reproduction check: a batch whose uploads take longer than the
// lease, offered to a second worker while the first is still uploading.
//
// Time is a counter the test moves: each upload takes 450 ms of it, and a
// second worker gets the batch once 1.1 s have passed, as the queue's
// redelivery would. Every call also takes turns of the event loop, like a
// network round trip, so the two workers interleave the same way on every run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';

const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

test('a batch that outlasts the lease is uploaded exactly once', async () => {
  let now = 0;
  const clock = { now: () => now };
  const store = createMemoryStore({ clock, roundTrip });
  const uploads = [];
  const partner = {
    async upload(record) {
      now += 450;
      for (let turn = 0; turn < 10; turn++) await roundTrip();
      uploads.push(record.id);
      return { accepted: record.id };
    },
  };
  const batch = { batchId: 'batch-7', records: [{ id: 'rec-1' }, { id: 'rec-2' }, { id: 'rec-3' }] };
  const blue = createWorker({ workerId: 'blue', store, partner, clock });
  const green = createWorker({ workerId: 'green', store, partner, clock });

  const first = blue.handle(batch);
  while (now < 1_100) await roundTrip();
  await Promise.all([first, green.handle(batch)]);

  const twice = uploads.filter((id, i) => uploads.indexOf(id) !== i);
  assert.deepEqual(twice, [], `uploaded more than once: ${twice.join(', ')} (uploads in order: ${uploads.join(', ')})`);
  assert.deepEqual([...uploads].sort(), ['rec-1', 'rec-2', 'rec-3']);
});
