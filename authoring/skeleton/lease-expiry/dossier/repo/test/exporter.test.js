// The visible reproduction check: a batch whose uploads take longer than the
// lease, handed to a second worker while the first is still uploading.
//
// Nothing here depends on real time (see test-support/virtual-time.js). Every
// store call is a round trip during which the clock stands still; each upload
// takes 450 ms of virtual time, the lease runs out on the virtual clock, and
// the queue hands the batch to green 1.1 s in, then again 1 s after each
// 'busy', as the README says.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long one upload takes; the README's uploads take 400 to 500 ms. */
const UPLOAD_MS = 450;

/** When the queue hands the batch to green: after blue's lease would have run out. */
const SECOND_DELIVERY_MS = 1_100;

/** How long the queue waits before it delivers a batch again after 'busy' (README). */
const REDELIVERY_MS = 1_000;

/** Deliveries to green the queue makes at most in this test. */
const MAX_ATTEMPTS = 5;

test('a batch that outlasts the lease is uploaded exactly once', async () => {
  const time = createVirtualTime();
  const store = createMemoryStore({ clock: time.clock, roundTrip: time.roundTrip });
  const uploads = [];
  const partner = {
    async upload(record) {
      await time.clock.sleep(UPLOAD_MS);
      uploads.push(record.id);
      return { accepted: record.id };
    },
  };
  const batch = { batchId: 'batch-7', records: [{ id: 'rec-1' }, { id: 'rec-2' }, { id: 'rec-3' }] };
  const blue = createWorker({ workerId: 'blue', store, partner, clock: time.clock });
  const green = createWorker({ workerId: 'green', store, partner, clock: time.clock });

  /** Green's deliveries of the batch: the first at SECOND_DELIVERY_MS, again after each 'busy'. */
  async function greenDeliveries() {
    await time.clock.sleep(SECOND_DELIVERY_MS);
    for (let attempt = 1; ; attempt++) {
      const outcome = await green.handle(batch);
      if (outcome !== 'busy' || attempt === MAX_ATTEMPTS) return outcome;
      await time.clock.sleep(REDELIVERY_MS);
    }
  }

  const outcomes = await Promise.all([blue.handle(batch), greenDeliveries()]);

  const twice = uploads.filter((id, i) => uploads.indexOf(id) !== i);
  assert.deepEqual(twice, [], `uploaded more than once: ${twice.join(', ')} (uploads in order: ${uploads.join(', ')}; outcomes: blue=${outcomes[0]}, green=${outcomes[1]})`);
  assert.deepEqual([...uploads].sort(), ['rec-1', 'rec-2', 'rec-3']);
});
