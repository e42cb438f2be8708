// The visible reproduction check: two workers, one store, one mailer.
//
// Nothing here depends on real time (see test-support/virtual-time.js). Every
// store call is a round trip, so while one worker waits the other runs, and
// the two interleave the same way on every run. The mailer's 300 ms, sleeps,
// claim leases and the queue's visibility timeout all run on the virtual clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long the queue waits for an ack before it delivers a message again (README). */
const VISIBILITY_TIMEOUT_MS = 5_000;

/** Deliveries of one message the queue makes at most in these tests. */
const MAX_ATTEMPTS = 10;

/** How long the mailer takes to accept a receipt; within the README's 1 s. */
const MAILER_MS = 300;

/** Two workers sharing one store, the receipts the mailer sent, and the queue. */
function setUp() {
  const time = createVirtualTime();
  const store = createMemoryStore({ clock: time.clock, roundTrip: time.roundTrip });
  const sent = [];
  const mailer = {
    async send(receipt) {
      await time.clock.sleep(MAILER_MS);
      sent.push(receipt);
      return { id: `mail-${sent.length}` };
    },
  };
  const worker = (workerId) => createWorker({ workerId, store, mailer, clock: time.clock });
  return { sent, queue: createQueue(time.clock), blue: worker('blue'), green: worker('green') };
}

/**
 * The receipts queue, as the README describes it: one message per job, which
 * keeps its id across deliveries; each delivery carries the message's attempt
 * number, 1, 2, … in the order the deliveries are made, whichever worker gets
 * them; a delivery that is not acked ('busy') is made again after the
 * visibility timeout.
 */
function createQueue(clock) {
  /** @type {Map<string, number>} jobId → deliveries made so far */
  const attempts = new Map();

  /** The next delivery of the message for `jobId`. */
  function delivery(jobId) {
    const attempt = (attempts.get(jobId) ?? 0) + 1;
    attempts.set(jobId, attempt);
    return { id: `msg-${jobId}`, jobId, attempt, orderId: `ord-${jobId}`, recipient: `${jobId}@customers.example` };
  }

  return {
    /**
     * Delivers the job's message to `worker`, again after each 'busy', and
     * answers the outcome that acked it.
     */
    async deliver(worker, jobId) {
      for (;;) {
        const outcome = await worker.handle(delivery(jobId));
        if (outcome !== 'busy' || attempts.get(jobId) >= MAX_ATTEMPTS) return outcome;
        await clock.sleep(VISIBILITY_TIMEOUT_MS);
      }
    },
  };
}

test('two workers given the same job send exactly one receipt', async () => {
  const { sent, queue, blue, green } = setUp();
  const outcomes = await Promise.all([queue.deliver(blue, 'job-7'), queue.deliver(green, 'job-7')]);
  assert.equal(sent.length, 1, `job-7 got ${sent.length} receipts; outcomes: blue=${outcomes[0]}, green=${outcomes[1]}`);
  assert.deepEqual([...outcomes].sort(), ['duplicate', 'sent'], `one worker sends, the other acks a duplicate; outcomes: blue=${outcomes[0]}, green=${outcomes[1]}`);
});

test('a redelivery after the receipt went out sends nothing', async () => {
  const { sent, queue, blue, green } = setUp();
  assert.equal(await queue.deliver(blue, 'job-8'), 'sent');
  assert.equal(await queue.deliver(green, 'job-8'), 'duplicate');
  assert.equal(sent.length, 1);
});
