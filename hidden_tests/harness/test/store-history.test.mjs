// The store's history of each key: what it held after every call on it, which
// properties read to ask who held a lock at a given step.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';

test('the store keeps what each key held after every call on it, reads and expiries included', async () => {
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent', 'delete'] } }),
    properties: {
      show: {
        end(world) {
          const rows = world.store.calledKeys().map((key) => [key, world.store.history(key)
            .map((h) => `${h.step.operation}@${h.step.at}:${h.value}/${h.writer}/${h.expiresAt}`)]);
          world.violate('show', JSON.stringify(rows));
        },
      },
    },
    scenarios: [{ name: 'one', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], tests: [{ name: 'history', property: 'show' }] }],
    limits: { maxLatencyMs: 0 },
  };
  const results = await runWorker(suite, `
    export function createWorker({ store, clock }) {
      return {
        async handle() {
          await store.setIfAbsent('lock:a', 'me', { ttlMs: 100 });
          await store.get('count');
          await store.set('count', '1');
          await clock.sleep(200);
          await store.get('lock:a');
          await store.delete('count');
          return 'done';
        },
      };
    }`);
  assert.deepEqual(JSON.parse(results.tests[0].message), [
    ['lock:a', ['setIfAbsent@0:me/blue/100', 'get@200:null/null/null']],
    ['count', ['get@0:null/null/null', 'set@0:1/blue/null', 'delete@200:null/null/null']],
  ]);
});
