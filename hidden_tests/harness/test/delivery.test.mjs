// Tests of how the queue's deliveries reach the workers: attempts are numbered per
// message, as a queue numbers them, whichever worker gets each delivery.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';

/** One message delivered to both workers at the same moment; each job must be notified once. */
const suite = {
  subject: subject({ notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
  effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
  scenarios: [{
    name: 'one message, two deliveries at once',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', at: 0 }],
    tests: [{ name: 'one notification', property: 'exactlyOncePerJob' }],
  }],
};

/** A worker that sends only when its delivery's attempt and name pass `when`. */
const sendingWhen = (when) => `
  export function createWorker({ worker, notifier }) {
    return {
      async handle({ job, attempt }) {
        if (${when}) await notifier.send(job);
        return 'done';
      },
    };
  }
`;

test('two deliveries of one message are attempts 1 and 2, never both 1', async () => {
  const results = await runWorker(suite, sendingWhen('attempt === 1'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('either worker may get attempt 1: both orders are explored', async () => {
  const results = await runWorker(suite, sendingWhen("attempt === 1 && worker === 'blue'"));
  assert.equal(results.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(results.tests[0].message, /job-7 never got its notification/);
  const received = results.tests[0].trace.filter((s) => s.operation === 'receive').map((s) => `${s.worker} ${s.result}`);
  assert.deepEqual(received, ['green delivery 1', 'blue delivery 2']);
});

/** One job, a claim in the store whose first attempt fails, and a queue that delivers again. */
const storeFails = {
  subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'get'] }, notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
  effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
  claimKeys: '^lock:',
  scenarios: [{
    name: 'the first claim fails',
    redeliver: { everyMs: 5000, maxAttempts: 3 },
    faults: [{ target: 'store', method: 'setIfAbsent', fail: (args, call) => call.failures === 0 && 'store timed out' }],
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', at: 0 }],
    tests: [{ name: 'one notification', property: 'exactlyOncePerJob' }],
  }],
};

/** A worker that claims the job in the store; `onError` is what it does when the claim fails. */
const claiming = (onError) => `
  export function createWorker({ worker, store, notifier }) {
    return {
      async handle({ job }) {
        let mine;
        try {
          mine = await store.setIfAbsent('lock:' + job, worker);
        } catch (error) {
          ${onError}
        }
        if (!mine) return 'busy';
        await notifier.send(job);
        return 'done';
      },
    };
  }
`;

test('a store call a fault fails does nothing, and the worker sees the error', async () => {
  const results = await runWorker(storeFails, claiming('throw error;'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('code that takes a failed claim for a granted one is caught', async () => {
  const results = await runWorker(storeFails, claiming('mine = true;'));
  assert.equal(results.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(results.tests[0].message, /job-7 got 2 notifications/);
  assert.ok(results.tests[0].trace.some((s) => s.operation === 'setIfAbsent' && s.result.startsWith('failed: store timed out')));
});

test('a fault must name the store or the lock service and give fail', async () => {
  const bad = { ...storeFails, scenarios: [{ ...storeFails.scenarios[0], faults: [{ target: 'notifier', method: 'send' }] }] };
  await assert.rejects(runWorker(bad, claiming('throw error;')), (error) => {
    assert.deepEqual(error.problems.map((p) => p.field), ['scenarios[0].faults[0].target', 'scenarios[0].faults[0].fail']);
    return true;
  });
});
