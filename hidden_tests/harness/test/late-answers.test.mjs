// A renewal may take effect and answer later, after its lease started to run:
// a renewal margin that only covers the next call fails, one that covers both
// round trips holds. At the slow pace a first claim does the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';

/** Fails a schedule where a worker writes its result while it does not hold the lease. */
const underLease = {
  onStore(world, op) {
    if (op.name !== 'set') return;
    const holder = world.store.entry('lock', world.now)?.value ?? 'nobody';
    if (holder !== op.worker) world.violate('underLease', `${op.worker} wrote its result while ${holder} held the lease`);
  },
};

/** Blue holds a lease of 1000 ms, renews it once, and writes its result just before the lease it believes it holds ends. */
function renewalSuite() {
  return {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'compareAndExpire', 'set'] } }),
    properties: { underLease },
    claimKeys: '^lock$',
    limits: { maxLatencyMs: 100, maxDelays: 2 },
    scenarios: [{
      name: 'a renewal, then a write at the end of the lease',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }],
      tests: [{ name: 'the result is written under the lease', property: 'underLease' }],
    }],
  };
}

const renewer = (marginMs) => `
  export function createWorker({ worker, clock, store }) {
    return {
      async handle() {
        if (!(await store.setIfAbsent('lock', worker, { ttlMs: 1000 }))) return 'done';
        await clock.sleep(500);
        if (!(await store.compareAndExpire('lock', worker, 1000))) return 'done';
        const leaseEnd = clock.now() + 1000;
        await clock.sleep(leaseEnd - ${marginMs} - clock.now());
        await store.set('result', worker);
        return 'done';
      },
    };
  }`;

test('a renewal margin that covers the write but not the renewal\'s own answer fails', async () => {
  const results = await runWorker(renewalSuite(), renewer(150));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'blue wrote its result while nobody held the lease');
  const renewal = t.trace.find((s) => s.operation === 'compareAndExpire');
  assert.match(renewal.result, /its answer is on its way back until \d+ ms/, JSON.stringify(renewal));
  const answer = t.trace.find((s) => s.operation === 'answer');
  assert.equal(answer.result, `the answer of compareAndExpire() arrives (it took effect at ${renewal.at} ms)`);
  assert.equal(answer.at - renewal.at, 100, JSON.stringify(t.trace, null, 1));
});

test('a renewal margin that covers both round trips holds', async () => {
  const results = await runWorker(renewalSuite(), renewer(250));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

/** Blue takes a lease of 1000 ms and writes its result just before the lease ends, counted from when it heard of the lease. */
function claimSuite() {
  return { ...renewalSuite(), scenarios: [{
    name: 'a claim, then a write at the end of the lease',
    deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }],
    tests: [{ name: 'the result is written under the lease', property: 'underLease' }],
  }] };
}

const claimer = (marginMs) => `
  export function createWorker({ worker, clock, store }) {
    return {
      async handle() {
        if (!(await store.setIfAbsent('lock', worker, { ttlMs: 1000 }))) return 'done';
        const leaseEnd = clock.now() + 1000;
        await clock.sleep(leaseEnd - ${marginMs} - clock.now());
        await store.set('result', worker);
        return 'done';
      },
    };
  }`;

test('at the slow pace a claim lands at once and answers late: a lease margin that covers only the write fails', async () => {
  const results = await runWorker(claimSuite(), claimer(150));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'blue wrote its result while nobody held the lease (in this schedule every call took as long as the fault model allows)');
  const claim = t.trace.find((s) => s.operation === 'setIfAbsent');
  assert.equal(claim.at, 0, JSON.stringify(t.trace, null, 1));
  assert.match(claim.result, /its answer is on its way back until 100 ms/, JSON.stringify(claim));
});

test('a lease margin that covers the claim\'s answer and the write holds at every pace', async () => {
  const results = await runWorker(claimSuite(), claimer(250));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});
