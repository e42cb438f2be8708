// The visible reproduction check: the gateway answers the first request after
// the client's timeout, so the client retries.
//
// Nothing here depends on real time (see test-support/virtual-time.js). The
// client gives up after 1 s of virtual time; the gateway takes 1.5 s over the
// first request and 200 ms over later ones (the README's range), and makes a
// charge when it answers, whether or not the client still waits for it.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long the gateway takes over its first request: longer than the client waits. */
const FIRST_ANSWER_MS = 1_500;

/** How long the gateway takes over every later request. */
const LATER_ANSWER_MS = 200;

/**
 * A gateway that charges each idempotency key once, slow to answer its first
 * request. `answered()` resolves once every request it was sent is answered.
 */
function slowFirstGateway(clock) {
  const charges = new Map();
  const pending = [];
  return {
    charges,
    charge({ orderId, amountCents, idempotencyKey }) {
      const answer = (async () => {
        await clock.sleep(pending.length === 0 ? FIRST_ANSWER_MS : LATER_ANSWER_MS);
        if (!charges.has(idempotencyKey)) charges.set(idempotencyKey, { chargeId: `ch_${charges.size + 1}`, orderId, amountCents });
        return charges.get(idempotencyKey);
      })();
      pending.push(answer);
      return answer;
    },
    answered: () => Promise.all(pending),
  };
}

test('a charge retried after a timeout is made once', async () => {
  const time = createVirtualTime();
  const gateway = slowFirstGateway(time.clock);
  const store = createMemoryStore({ roundTrip: time.roundTrip });
  const worker = createWorker({ workerId: 'blue', store, gateway, clock: time.clock });

  assert.equal(await worker.handle({ orderId: 'ord-7', amountCents: 4_200 }), 'charged');
  await gateway.answered(); // the late answer to the first request lands

  const made = [...gateway.charges.values()].map((c) => c.chargeId);
  assert.equal(made.length, 1, `ord-7 was charged ${made.length} times: ${made.join(', ')}`);
});
