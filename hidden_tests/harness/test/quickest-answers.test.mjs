// A call whose quickest answer falls due at the instant of a timer of its
// worker answers after the timer: an answer a hair slower than the quickest is
// in the fault model, one quicker is not. An answer that can come earlier, or
// only at that instant, is still tried on both sides of the timer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';

/**
 * A suite in which blue sends one e-mail taking `latencyMs` and looks, 100 ms
 * after sending, whether its answer came: `seen` collects what blue saw in
 * each schedule explored.
 */
function racingSuite(latencyMs, seen) {
  return {
    subject: { ...subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }), acked: () => true },
    effects: [{ target: 'mail', method: 'send', label: 'e-mail', latencyMs }],
    properties: { record: { end: (world) => seen.add(world.deliveries[0].outcome) } },
    limits: { maxDelays: 1 },
    scenarios: [{
      name: 'an e-mail and a timer',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }],
      tests: [{ name: 'blue looks after 100 ms', property: 'record' }],
    }],
  };
}

const looker = `
  export function createWorker({ clock, mail }) {
    return {
      async handle({ job }) {
        let answered = false;
        const sending = mail.send(job).then(() => { answered = true; });
        await clock.sleep(100);
        const saw = answered ? 'answered' : 'waiting';
        await sending;
        return saw;
      },
    };
  }`;

/** What blue saw across every schedule of the suite with this latency range. */
async function seenWith(latencyMs) {
  const seen = new Set();
  const results = await runWorker(racingSuite(latencyMs, seen), looker);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  return [...seen].sort();
}

test('an answer whose quickest is due with the timer comes after it', async () => {
  assert.deepEqual(await seenWith([100, 200]), ['waiting']);
});

test('an answer that can come before the timer is tried on both sides of it', async () => {
  assert.deepEqual(await seenWith([50, 200]), ['answered', 'waiting']);
});

test('an answer that can only come with the timer still ties with it', async () => {
  assert.deepEqual(await seenWith([100, 100]), ['answered', 'waiting']);
});

test('an answer due at the slowest with the timer still ties with it', async () => {
  assert.deepEqual(await seenWith([0, 100]), ['answered', 'waiting']);
});
