// The burst test: reproduces Lindqvist Dental's reminder batch of 06:00:00.
//
// Two gateway pods share one quota store and one carrier, as in production.
// Every call to the store or the carrier is a round trip on virtual time (see
// test-support/virtual-time.js): one turn of the event loop, during which the
// clock stands still and the other requests run. So the pods interleave the
// same way on every run, and a sleep or an expiry follows the clock.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { createGateway } from '../src/gateway.js';
import { createMemoryStore } from '../src/persistence/memory-store.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const PARTNER = 'lindqvist-dental';
const QUOTA = 5;
const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndSet', 'incrBy', 'expire', 'delete'];
const BATCH_START = Date.parse('2026-09-08T06:00:00.000Z');

/** Wraps the store for one pod: each call is written to `trace` once answered, in the order calls took effect. */
function traced(store, pod, trace) {
  const view = {};
  for (const method of STORE_METHODS) {
    view[method] = async (...args) => {
      const result = await store[method](...args);
      trace.push(`${pod} ${method}(${args.map((a) => JSON.stringify(a)).join(', ')}) -> ${JSON.stringify(result ?? null)}`);
      return result;
    };
  }
  return view;
}

/** Two pods, one store, a carrier that accepts every message and remembers it. */
function twoPods() {
  const time = createVirtualTime({ start: BATCH_START });
  const trace = [];
  const store = createMemoryStore({ clock: time.clock, beforeOperation: time.roundTrip });
  const sent = [];
  const carrier = {
    async send(submission) {
      await time.roundTrip();
      sent.push(submission.client_ref);
      trace.push(`carrier send(${submission.client_ref})`);
      return { id: `mer_${sent.length}`, status: 'queued' };
    },
  };
  const pod = (name) => createGateway({
    instanceId: `sms-gateway-5d8f7-${name}`, store: traced(store, name, trace), carrier, clock: time.clock, plans: { [PARTNER]: QUOTA },
  });
  return { time, trace, store, sent, kq2xw: pod('kq2xw'), p9tlm: pod('p9tlm') };
}

/** `count` reminders of the batch, alternating between the two pods, all at once. */
function burst(pods, count, from = 1) {
  return Promise.all(Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const pod = n % 2 === 1 ? pods.kq2xw : pods.p9tlm;
    return pod.handle({ requestId: `r-${String(n).padStart(2, '0')}`, partnerId: PARTNER, to: `+4670123${String(4500 + n)}`, text: `Reminder: your appointment tomorrow (${n})` });
  }));
}

function story(trace) {
  return `\n\nWhat happened, in order:\n  ${trace.join('\n  ')}\n`;
}

describe('the burst test', () => {
  test('a burst of 8 requests at once: exactly the quota of 5 reaches the carrier, the rest are refused', async () => {
    const pods = twoPods();
    const answers = await burst(pods, 8);
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.requestId);
    const refused = answers.filter((a) => a.status === 429).map((a) => a.requestId);
    assert.ok(pods.sent.length <= QUOTA,
      `${PARTNER}'s quota is ${QUOTA} requests a window, but ${pods.sent.length} were sent to the carrier in the window of 06:00:00 `
      + `(${pods.sent.join(', ')}); refused: ${refused.join(', ') || 'none'}${story(pods.trace)}`);
    assert.equal(accepted.length, QUOTA,
      `${QUOTA} of 8 requests must get through, but ${accepted.length} did (${accepted.join(', ')})${story(pods.trace)}`);
  });

  test('every quota counter expires, and the next window starts with the full quota', async () => {
    const pods = twoPods();
    await burst(pods, 6);
    for (const [key, entry] of Object.entries(pods.store.snapshot())) {
      assert.notEqual(entry.expiresAt, null, `${key} holds ${entry.value} and never expires: the store would fill up with old windows${story(pods.trace)}`);
    }
    const sentBefore = pods.sent.length;
    await pods.time.clock.sleep(1000);
    const answers = await Promise.all([1, 2].map((i) => pods.kq2xw.handle({
      requestId: `r-next-${i}`, partnerId: PARTNER, to: '+46701239999', text: 'Reminder: your appointment tomorrow',
    })));
    assert.deepEqual(answers.map((a) => a.status), [202, 202],
      `in the window of 06:00:01 nothing had been sent yet, so both requests must go through${story(pods.trace)}`);
    assert.equal(pods.sent.length, sentBefore + 2);
  });
});
