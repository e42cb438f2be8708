// The visible reproduction check: the gateway answers the first request after
// the client's timeout, so the client retries.
//
// Time is counted in turns of the event loop: the client's 1 s timeout takes
// 10 turns, the gateway's first answer 15 and later ones 2, so the timeout
// wins the first race on every run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryStore } from '../src/memory-store.js';
import { createWorker } from '../src/worker.js';

const turns = async (n) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A gateway that charges each idempotency key once; slow to answer its first request. */
function slowFirstGateway() {
  const charges = new Map();
  let requests = 0;
  return {
    charges,
    async charge({ orderId, amountCents, idempotencyKey }) {
      requests += 1;
      await turns(requests === 1 ? 15 : 2);
      if (!charges.has(idempotencyKey)) charges.set(idempotencyKey, { chargeId: `ch_${charges.size + 1}`, orderId, amountCents });
      return charges.get(idempotencyKey);
    },
  };
}

test('a charge retried after a timeout is made once', async () => {
  const gateway = slowFirstGateway();
  const clock = { sleep: (ms) => turns(ms / 100) };
  const worker = createWorker({ workerId: 'blue', store: createMemoryStore(), gateway, clock });

  assert.equal(await worker.handle({ orderId: 'ord-7', amountCents: 4_200 }), 'charged');
  await turns(20); // the late answer to the first request lands

  const made = [...gateway.charges.values()].map((c) => c.chargeId);
  assert.equal(made.length, 1, `ord-7 was charged ${made.length} times: ${made.join(', ')}`);
});
