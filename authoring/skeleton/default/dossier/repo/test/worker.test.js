// The visible reproduction check: two workers, one store, one mailer.
//
// Nothing here depends on real time. Every store and mailer call takes one turn
// of the event loop, like a network round trip, so while one worker waits the
// other runs, and the two interleave the same way on every run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';

const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
const clock = { now: () => Date.parse('2026-03-14T09:00:00Z'), sleep: roundTrip };

/** Two workers sharing one store, and the receipts the mailer sent. */
function setUp() {
  const store = createMemoryStore({ clock, roundTrip });
  const sent = [];
  const mailer = {
    async send(receipt) {
      await roundTrip();
      sent.push(receipt);
      return { id: `mail-${sent.length}` };
    },
  };
  const worker = (workerId) => createWorker({ workerId, store, mailer, clock });
  return { sent, blue: worker('blue'), green: worker('green') };
}

/** Delivery number `attempt` of the message for `jobId`. */
function delivery(jobId, attempt) {
  return { id: `${jobId}-${attempt}`, jobId, attempt, orderId: `ord-${jobId}`, recipient: `${jobId}@customers.example` };
}

test('two workers given the same job send exactly one receipt', async () => {
  const { sent, blue, green } = setUp();
  const outcomes = await Promise.all([blue.handle(delivery('job-7', 1)), green.handle(delivery('job-7', 2))]);
  assert.equal(sent.length, 1, `job-7 got ${sent.length} receipts; outcomes: blue=${outcomes[0]}, green=${outcomes[1]}`);
});

test('a redelivery after the receipt went out sends nothing', async () => {
  const { sent, blue, green } = setUp();
  assert.equal(await blue.handle(delivery('job-8', 1)), 'sent');
  assert.equal(await green.handle(delivery('job-8', 2)), 'duplicate');
  assert.equal(sent.length, 1);
});
