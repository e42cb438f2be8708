// A read may take effect as soon as its latency allows and answer later, with
// what the key held back then. Blue's read, sent at 0, takes effect before
// green's change at 100 and answers at 200, when green's timer fires; its cache
// write may then land up to 400 ms later, after a second delete at 550 ms.
// Answered with what the key held when it landed, the old row could only come
// back until 500 ms (read landing at 100 ahead of the change, write 400 ms later).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { FakeStore } from '../store.mjs';

/**
 * Blue caches the row; 100 ms later green changes it, deletes the cache, and
 * deletes it again `waitMs` later, its wait split at 200 ms. Store calls take
 * up to 400 ms, and three may be overtaken per schedule.
 */
function staleFillSuite() {
  return {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['get', 'set', 'delete'] } }),
    properties: {
      freshCache: {
        end(world) {
          const cached = world.store.entry('cache', world.now)?.value;
          const row = world.store.entry('row', world.now)?.value;
          if (cached !== undefined && cached !== row) world.violate('freshCache', `the cache holds "${cached}" while the row is "${row}"`);
        },
      },
    },
    limits: { maxLatencyMs: 400, maxDelays: 3 },
    scenarios: [{
      name: 'a lookup while the row changes',
      store: { row: 'old' },
      deliveries: [{ worker: 'blue', job: 'lookup', at: 0 }, { worker: 'green', job: 'change', at: 100 }],
      tests: [{ name: 'the cache never keeps the old row', property: 'freshCache' }],
    }],
  };
}

const lookupOrChange = (waitMs) => `
  export function createWorker({ clock, store }) {
    return {
      async handle({ job }) {
        if (job === 'lookup') {
          await store.set('cache', await store.get('row'));
          return 'done';
        }
        await store.set('row', 'new');
        await store.delete('cache');
        await clock.sleep(100);
        await clock.sleep(${waitMs - 100});
        await store.delete('cache');
        return 'done';
      },
    };
  }`;

test('a second delete that waits less than a read and a write lets the old row back into the cache', async () => {
  const results = await runWorker(staleFillSuite(), lookupOrChange(450));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'the cache holds "old" while the row is "new"');
  const read = t.trace.find((s) => s.operation === 'get');
  assert.match(read.result, /^"old" \(what the key held at 0 ms: the read took effect then, and its answer came back now\)/, JSON.stringify(t.trace, null, 1));
  assert.equal(read.at, 200, JSON.stringify(read));
});

test('a second delete after a read and a write at their slowest keeps the cache fresh', async () => {
  const results = await runWorker(staleFillSuite(), lookupOrChange(1000));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a key answers every value it held since a read could first have taken effect, expiries included', () => {
  const store = new FakeStore(/(?!)/, { row: 'v1' });
  store.apply('set', ['row', 'v2', { ttlMs: 50 }], 'green', 100);
  store.apply('set', ['row', 'v3'], 'green', 300);
  assert.deepEqual(store.valuesSince('row', 0, 0, 300), [{ value: 'v1', at: 0 }, { value: 'v2', at: 100 }, { value: null, at: 150 }]);
  assert.deepEqual(store.valuesSince('row', 0, 200, 300), [{ value: null, at: 200 }]);
  assert.deepEqual(store.valuesSince('row', 250, 300, 400), [{ value: null, at: 300 }]);
  assert.deepEqual(store.valuesSince('row', 300, 300, 400), [], 'a change at the moment the read was sent');
  assert.deepEqual(store.valuesSince('other', 0, 0, 400), []);
});
