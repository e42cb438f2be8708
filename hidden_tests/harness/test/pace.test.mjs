// Scenarios are explored at two paces, calls at their quickest (with or
// without delays) and every call at its slowest, so a lease shorter than the
// slowest call it covers fails there too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { pacesOf } from '../explorer.mjs';
import { checkSuite } from '../suite.mjs';

/** Blue sends job-1's e-mail (50 to 400 ms) under a lease; green gets the job again at 350 ms. */
function leaseSuite() {
  return {
    subject: subject({
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent', 'compareAndDelete'] },
      mailer: { $: 'remote', name: 'mailer', methods: ['send'] },
    }),
    effects: [{ target: 'mailer', method: 'send', label: 'e-mail', latencyMs: [50, 400] }],
    limits: { maxLatencyMs: 10, maxDelays: 0 },
    scenarios: [{
      name: 'the job comes again while its e-mail is on its way',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-1', at: 350 }],
      tests: [{ name: 'the e-mail goes out once', property: 'exactlyOncePerJob' }],
    }],
  };
}

const sender = (leaseMs) => `
  export function createWorker({ worker, store, mailer }) {
    return {
      async handle({ job }) {
        if (await store.get('sent:' + job)) return 'done';
        if (!(await store.setIfAbsent('lock:' + job, worker, { ttlMs: ${leaseMs} }))) return 'busy';
        try {
          await mailer.send({ job });
          await store.set('sent:' + job, 'yes');
        } finally {
          await store.compareAndDelete('lock:' + job, worker);
        }
        return 'done';
      },
    };
  }`;

test('a lease shorter than the slowest call it covers fails at the slow pace', async () => {
  const results = await runWorker(leaseSuite(), sender(300));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /\(in this schedule every call took as long as the fault model allows\)$/);
  const send = t.trace.find((s) => s.operation === 'send');
  assert.equal(send.at - send.issued, 400, JSON.stringify(send));
});

test('a lease longer than the slowest call holds at both paces', async () => {
  const results = await runWorker(leaseSuite(), sender(1000));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('scenarios whose latencies vary get two paces, with or without delays', () => {
  const limits = (l) => ({ limits: { maxLatencyMs: 10, maxDelays: 0, ...l } });
  assert.deepEqual(pacesOf(limits({})), ['quick', 'slow']);
  assert.deepEqual(pacesOf(limits({ maxDelays: 1 })), ['any', 'slow']);
  assert.deepEqual(pacesOf(limits({ maxDelays: 1, paces: 1 })), ['any']);
  assert.deepEqual(pacesOf(limits({ paces: 1 })), ['quick']);
  assert.deepEqual(pacesOf(limits({ maxLatencyMs: 0 })), ['any']);
  assert.deepEqual(pacesOf({ ...limits({ maxLatencyMs: 0 }), effects: [{ latencyMs: [50, 400] }] }), ['quick', 'slow']);
  assert.deepEqual(pacesOf({ ...limits({ maxLatencyMs: 0 }), services: { rows: { latencyMs: [5, 5] } } }), ['any']);
  const two = [{ worker: 'blue' }, { worker: 'green' }, { worker: 'blue' }];
  assert.deepEqual(pacesOf({ ...limits({ maxDelays: 1, paces: 3 }), deliveries: two }), ['any', 'slow', 'slow:blue', 'slow:green']);
  assert.deepEqual(pacesOf({ ...limits({ paces: 3 }), deliveries: [{ worker: 'blue' }] }), ['quick', 'slow']);
  assert.deepEqual(pacesOf({ ...limits({ paces: ['quick', 'slow:green'] }), deliveries: two }), ['quick', 'slow:green']);
  assert.deepEqual(pacesOf({ ...limits({ maxDelays: 1, paces: ['slow:blue', 'quick'] }), deliveries: two }), ['slow:blue', 'any']);
  assert.deepEqual(pacesOf({ ...limits({ maxLatencyMs: 0, paces: ['quick', 'slow:green'] }), deliveries: two }), ['any']);
});

/**
 * Blue and green both get job-1 at 0; each polls for a lock with a 2.5 s lease
 * every 50 ms, then reads the sent-record, sends (up to 1 s) and writes it:
 * up to four calls of 1 s under a lease of 2.5 s.
 */
function chainSuite(paces) {
  return {
    subject: subject({
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent', 'compareAndDelete'] },
      mailer: { $: 'remote', name: 'mailer', methods: ['send'] },
    }),
    effects: [{ target: 'mailer', method: 'send', label: 'e-mail', latencyMs: [0, 1000] }],
    claimKeys: '^lock:',
    limits: { maxLatencyMs: 1000, maxDelays: 1, paces },
    scenarios: [{
      name: 'two workers get the job at once',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-1', at: 0 }],
      tests: [{ name: 'the e-mail goes out once', property: 'exactlyOncePerJob' }],
    }],
  };
}

const pollingSender = `
  export function createWorker({ worker, clock, store, mailer }) {
    return {
      async handle({ job }) {
        while (!(await store.setIfAbsent('lock:' + job, worker, { ttlMs: 2500 }))) await clock.sleep(50);
        try {
          if (await store.get('sent:' + job)) return 'done';
          await mailer.send({ job });
          await store.set('sent:' + job, 'yes');
        } finally {
          await store.compareAndDelete('lock:' + job, worker);
        }
        return 'done';
      },
    };
  }`;

test('a lease shorter than its holder\'s slowest calls fails once one worker alone is slow (paces: 3)', async () => {
  const both = await runWorker(chainSuite(2), pollingSender);
  assert.equal(both.status, 'pass', 'one slow call, or every call slow, leaves the lease enough: ' + JSON.stringify(both.tests[0].message));
  const alone = await runWorker(chainSuite(3), pollingSender);
  const [t] = alone.tests;
  assert.equal(t.status, 'fail', JSON.stringify(alone, null, 1));
  assert.match(t.message, /\(in this schedule every call of (blue|green) took as long as the fault model allows, while the other workers' were as quick as it allows\)$/);
});

test('a scenario that keeps only the quick pace misses the short lease, and paces must be 1, 2, 3 or a list', async () => {
  const quickOnly = leaseSuite();
  quickOnly.scenarios[0].limits = { paces: 1 };
  const results = await runWorker(quickOnly, sender(300));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  quickOnly.scenarios[0].limits = { paces: 4 };
  const [problem] = checkSuite(quickOnly);
  assert.equal(problem.field, 'scenarios[0].limits.paces');
  assert.match(problem.message, /must be 1 .*, 2 .*, 3 .* or a list of those paces/);
});

test('a scenario may list its paces, and then explores those alone', async () => {
  const blueAlone = await runWorker(chainSuite(['quick', 'slow:blue']), pollingSender);
  const [t] = blueAlone.tests;
  assert.equal(t.status, 'fail', JSON.stringify(blueAlone, null, 1));
  assert.match(t.message, /\(in this schedule every call of blue took as long as the fault model allows, while the other workers' were as quick as it allows\)$/);
  const quickAlone = await runWorker(chainSuite(['quick']), pollingSender);
  assert.equal(quickAlone.status, 'pass', JSON.stringify(quickAlone, null, 1));
  assert.ok(quickAlone.tests[0].work < blueAlone.tests[0].work, 'a pace not listed is not explored');
});

test('a list of paces names each pace once, and only workers of its scenario', () => {
  for (const [paces, message] of [
    [[], /must list paces, each once/],
    [['quick', 'quick'], /must list paces, each once/],
    [['quick', 'fast'], /must list paces, each once/],
    [['quick', 'slow:purple'], /"purple" handles no delivery of this scenario/],
  ]) {
    const suite = chainSuite(2);
    suite.scenarios[0].limits = { paces };
    const problems = checkSuite(suite);
    assert.equal(problems.length, 1, `${JSON.stringify(paces)}: ${JSON.stringify(problems)}`);
    assert.equal(problems[0].field, 'scenarios[0].limits.paces');
    assert.match(problems[0].message, message);
  }
});
