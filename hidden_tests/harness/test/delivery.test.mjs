// Tests of how the queue's deliveries reach the workers: attempts are numbered per
// message, as a queue numbers them, whichever worker gets each delivery.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { arriveTogether, mayOverlap } from '../deliveries.mjs';

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
  assert.match(results.tests[0].message, /job-7 never got its notification: /);
  assert.match(results.tests[0].message, /green acknowledged delivery 1 with "done", so the queue will not deliver it again; blue acknowledged delivery 2 with "done"/);
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

/**
 * The same job, its claim's first failure counted by `counter`: per method
 * (failures) or over every method on the key (failuresOnKey). A worker whose
 * claim fails falls back to a plain set, and takes that for the claim.
 */
function fallbackSuite(counter) {
  const fail = (args, call) => call[counter] === 0 && 'store timed out';
  return {
    ...storeFails,
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'set'] }, notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
    scenarios: [{ ...storeFails.scenarios[0], faults: ['setIfAbsent', 'set'].map((method) => ({ target: 'store', method, fail })) }],
  };
}

test('failuresOnKey counts the failures on a key over every method, so the call after a failed one may go through', async () => {
  const fallback = claiming("await store.set('lock:' + job, worker); mine = true;");
  const perMethod = await runWorker(fallbackSuite('failures'), fallback);
  assert.equal(perMethod.status, 'pass', JSON.stringify(perMethod, null, 1));
  const perKey = await runWorker(fallbackSuite('failuresOnKey'), fallback);
  assert.equal(perKey.status, 'fail', JSON.stringify(perKey, null, 1));
  assert.match(perKey.tests[0].message, /job-7 got 2 notifications/);
  const calls = perKey.tests[0].trace.filter((s) => s.operation === 'setIfAbsent' || s.operation === 'set').map((s) => `${s.operation} ${s.result.startsWith('failed') ? 'failed' : 'ok'}`);
  assert.ok(calls.includes('setIfAbsent failed') && calls.includes('set ok'), JSON.stringify(calls));
});

test('a fault must name the store or the lock service and give fail', async () => {
  const bad = { ...storeFails, scenarios: [{ ...storeFails.scenarios[0], faults: [{ target: 'notifier', method: 'send' }] }] };
  await assert.rejects(runWorker(bad, claiming('throw error;')), (error) => {
    assert.deepEqual(error.problems.map((p) => p.field), ['scenarios[0].faults[0].target', 'scenarios[0].faults[0].fail']);
    return true;
  });
});

test('a fault sees how many effects the job had, so it can fail only a clean-up after the send', async () => {
  const seen = new Set();
  const suite = {
    subject: { ...subject({ store: { $: 'remote', name: 'store', methods: ['delete'] }, notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
      acked: () => true },
    effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
    properties: { record: { end: (world) => seen.add(world.deliveries[0].outcome) } },
    scenarios: [{
      name: 'a clean-up after the send fails',
      faults: [{ target: 'store', method: 'delete', fail: (args, call) => call.effects > 0 && 'store timed out' }],
      deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
      tests: [{ name: 'what blue saw', property: 'record' }],
    }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ store, notifier }) {
      const tryDelete = () => store.delete('scratch').then(() => 'ok', () => 'failed');
      return {
        async handle({ job }) {
          const before = await tryDelete();
          await notifier.send(job);
          return before + ' then ' + (await tryDelete());
        },
      };
    }
  `);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  assert.deepEqual([...seen], ['ok then failed']);
});

/** One job whose repeat may arrive at any moment while its first delivery is handled. */
const repeatDuring = {
  subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent'] }, notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
  effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
  claimKeys: '^lock:',
  limits: { maxLatencyMs: 10 },
  scenarios: [{
    name: 'a repeat arrives while the first delivery is handled',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', during: 0 }],
    tests: [{ name: 'one notification', property: 'exactlyOncePerJob' }],
  }],
};

/** A worker that claims the job for `leaseMs`, works 200 ms, then sends. */
const leasing = (leaseMs) => `
  import { setTimeout as sleep } from 'node:timers/promises';
  export function createWorker({ store, notifier }) {
    return {
      async handle({ job }) {
        if (!(await store.setIfAbsent('lock:' + job, 'taken', { ttlMs: ${leaseMs} }))) return 'busy';
        await sleep(200);
        await notifier.send(job);
        return 'done';
      },
    };
  }
`;

test('a repeat that may arrive during another delivery is tried at every moment of it: a lease shorter than the work is caught', async () => {
  const atOnce = { ...repeatDuring, scenarios: [{ ...repeatDuring.scenarios[0], deliveries: [
    { worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', at: 0 },
  ] }] };
  assert.equal((await runWorker(atOnce, leasing(100))).status, 'pass', 'a repeat at the same moment never sees the lease run out');
  const results = await runWorker(repeatDuring, leasing(100));
  assert.equal(results.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(results.tests[0].message, /job-7 got 2 notifications/);
  const repeat = results.tests[0].trace.find((s) => s.operation === 'receive' && s.worker === 'green');
  assert.ok(repeat.at >= 100 && repeat.at <= 200, `the repeat arrived after the lease ran out, by the send: at ${repeat.at} ms`);
});

test('a lease that outlasts the work passes, whenever the repeat arrives', async () => {
  const results = await runWorker(repeatDuring, leasing(300));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a delivery that arrives during another has no time of its own and names a delivery that starts on its own', async () => {
  const bad = { ...repeatDuring, scenarios: [{ ...repeatDuring.scenarios[0], deliveries: [
    { worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', during: 0, at: 5 }, { worker: 'blue', job: 'job-7', during: 1 },
  ] }] };
  await assert.rejects(runWorker(bad, leasing(300)), (error) => {
    assert.deepEqual(error.problems.map((p) => p.field), ['scenarios[0].deliveries[1].during', 'scenarios[0].deliveries[2].during']);
    return true;
  });
});

/** One job the worker refuses until its fourth attempt; the scenario redelivers twice, the job itself more. */
const patient = (maxAttempts) => ({
  subject: subject({ notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
  effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
  scenarios: [{
    name: 'a job answered on its fourth delivery',
    redeliver: { everyMs: 5000, maxAttempts: 2 },
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0, maxAttempts }],
    tests: [{ name: 'one notification', property: 'exactlyOncePerJob' }],
  }],
});

const fourthTime = `
  export function createWorker({ notifier }) {
    return {
      async handle({ job, attempt }) {
        if (attempt < 4) return 'busy';
        await notifier.send(job);
        return 'done';
      },
    };
  }
`;

test('a delivery\'s own maxAttempts overrides the scenario\'s', async () => {
  const cut = await runWorker(patient(undefined), fourthTime);
  assert.equal(cut.status, 'fail', JSON.stringify(cut, null, 1));
  assert.match(cut.tests[0].message, /job-7 never got its notification/);
  const results = await runWorker(patient(4), fourthTime);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a delivery after one whose worker died comes its delayMs after the death', async () => {
  const results = await runWorker({
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['set'] } }),
    claimKeys: '^lock:',
    // Fails every schedule, to show its trace.
    properties: { shown: { end: (world) => world.violate('shown', 'the schedule, shown') } },
    limits: { maxLatencyMs: 100 },
    scenarios: [{
      name: 'blue dies at its first write; green comes 1 s later',
      crash: { worker: 'blue' },
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', after: 0, delayMs: 1000 }],
      tests: [{ name: 'every schedule, shown', property: 'shown' }],
    }],
  }, `
    export function createWorker({ store }) {
      return { async handle({ job }) { await store.set(job, 'x'); return 'done'; } };
    }
  `);
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  const crash = t.trace.find((s) => s.operation === 'crash');
  const green = t.trace.find((s) => s.worker === 'green' && s.operation === 'receive');
  assert.ok(crash && green, JSON.stringify(t.trace, null, 1));
  assert.equal(green.at - crash.at, 1000, JSON.stringify(t.trace, null, 1));
});

test('a failure given as { message, ...fields } rejects with an error that carries the fields', async () => {
  const seen = new Set();
  const suite = {
    subject: { ...subject({ psp: { $: 'remote', name: 'psp', methods: ['capture'] } }), acked: () => true },
    effects: [{ target: 'psp', method: 'capture', label: 'capture',
      fail: () => ({ message: 'no answer within 10000 ms', name: 'PspError', code: 'timeout', httpStatus: 504, nested: { dropped: true } }) }],
    properties: { record: { end: (world) => seen.add(world.deliveries[0].outcome) } },
    scenarios: [{
      name: 'a capture that times out',
      deliveries: [{ worker: 'blue', job: 'pay-1', at: 0 }],
      tests: [{ name: 'what blue saw', property: 'record' }],
    }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ psp }) {
      return {
        async handle({ job }) {
          try {
            await psp.capture(job);
            return 'captured';
          } catch (error) {
            return [error instanceof Error, error.name, error.code, error.httpStatus, typeof error.nested, error.message].join(' | ');
          }
        },
      };
    }
  `);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  assert.deepEqual([...seen], ['true | PspError | timeout | 504 | undefined | no answer within 10000 ms']);
});

test('two deliveries arrive together only when one comes during the other or both within the latency of a call', () => {
  const blue = (more) => ({ worker: 'blue', job: 'job-1', ...more });
  assert.equal(arriveTogether([blue({ at: 0 }), blue({ at: 150 })], 200), true);
  assert.equal(arriveTogether([blue({ at: 0 }), blue({ at: 150 })], 100), false);
  assert.equal(arriveTogether([blue({ at: 0 }), blue({ during: 0 })], 0), true);
  assert.equal(arriveTogether([blue({ at: 0 }), { ...blue({ at: 0 }), worker: 'green' }], 200), false, 'two workers');
  // Neither waits for the other, so they may overlap, but they never arrive together.
  assert.equal(arriveTogether([blue({ at: 0 }), blue({ at: 60_000 })], 1_000), false);
  assert.equal(mayOverlap([blue({ at: 0 }), blue({ at: 60_000 })]), true);
});
