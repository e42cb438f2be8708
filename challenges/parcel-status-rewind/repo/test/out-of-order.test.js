// The visible reproduction: parcel PX-4471-0932 on 20 November. The courier's
// handheld had no signal on the round, and at 10:41:06 it uploaded the scans it
// had kept: event 9 (out for delivery, taken when the van was loaded) and
// event 10 (delivered, at the door). Swiftline posted both to our webhook in
// the same second, and the queue handed event 10 to tracker-b and event 9 to
// tracker-a, which handled them at the same time.
//
// Nothing here waits for real time (test-support/virtual-time.js): every store
// call is a round trip, one turn of the event loop during which the other
// tracker runs, so the two trackers interleave the same way on every run.
//
// Both trackers live in this one test process. In production they are
// separate processes that share only the store. As in production, a message
// whose handling threw is delivered again once its visibility timeout has
// passed (30 s of virtual time, no real waiting), with the next attempt number.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createTracker } from '../src/consumer.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const PARCEL = 'PX-4471-0932';

/** The queue's visibility timeout (deploy/tracker.yaml). */
const VISIBILITY_TIMEOUT_MS = 30_000;

/** How many times the test's queue delivers a message whose handling keeps throwing. */
const MAX_DELIVERIES = 3;

/**
 * Hands `message` to `tracker` as the queue does: again, after the visibility
 * timeout and with the next attempt number, each time its handling throws.
 */
async function deliver(time, tracker, message) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await tracker.handle({ ...message, attempt });
    } catch (error) {
      if (attempt === MAX_DELIVERIES) throw error;
      await time.clock.sleep(VISIBILITY_TIMEOUT_MS);
    }
  }
}

const AT_DEPOT = {
  parcelId: PARCEL, seq: 8, status: 'at_depot', occurredAt: '2026-11-20T07:12:44Z', location: 'Leeds depot', updatedBy: 'tracker-a',
};
const OUT_FOR_DELIVERY = {
  messageId: 'evt-7f3a-0009', parcelId: PARCEL, seq: 9, status: 'out_for_delivery',
  occurredAt: '2026-11-20T07:12:44Z', location: 'Leeds depot',
};
const DELIVERED = {
  messageId: 'evt-7f3a-0010', parcelId: PARCEL, seq: 10, status: 'delivered',
  occurredAt: '2026-11-20T10:41:05Z', location: 'LS6 2QT',
};

test('the page shows a parcel\'s newest event when two of its events are handled at once', async () => {
  const time = createVirtualTime({ start: Date.parse('2026-11-20T10:41:07.000Z') });
  const store = createMemoryStore({ clock: time.clock, roundTrip: time.roundTrip });
  await store.set(`parcel:${PARCEL}:status`, JSON.stringify(AT_DEPOT));
  const trackerA = createTracker({ trackerId: 'tracker-a', store, clock: time.clock });
  const trackerB = createTracker({ trackerId: 'tracker-b', store, clock: time.clock });

  const [delivered, outForDelivery] = await Promise.all([
    deliver(time, trackerB, DELIVERED),
    deliver(time, trackerA, OUT_FOR_DELIVERY),
  ]);

  const shown = JSON.parse(store.snapshot()[`parcel:${PARCEL}:status`]);
  assert.deepEqual(
    { seq: shown.seq, status: shown.status },
    { seq: 10, status: 'delivered' },
    `the page shows event ${shown.seq} (${shown.status}, written by ${shown.updatedBy}), but the parcel's newest event is 10 (delivered); `
      + `tracker-b's event 10 ended ${delivered.result}, tracker-a's event 9 ended ${outForDelivery.result}`,
  );
});
