// What a suite can say: deliveries a worker handles at once, pauses anywhere,
// stateful services (fencing tokens, transactions, rate limits, a broker),
// per-scenario effects and limits, and traces that explain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leaseHolder, runWorker, subject } from './inline.mjs';

test('calls are attributed to the delivery that made them, when a worker handles two at once', async () => {
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['incrBy'] }, notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
    effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
    properties: {
      ownDelivery: {
        end(world) {
          const wrong = world.sends.find((s) => s.job !== s.args[0]);
          if (wrong) world.violate('ownDelivery', `${wrong.args[0]}'s notification was counted for ${wrong.job}`);
        },
      },
    },
    scenarios: [{
      name: 'two jobs on one worker',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'blue', job: 'job-2', at: 0 }],
      tests: [
        { name: 'each notification belongs to its job', property: 'ownDelivery' },
        { name: 'each job notified once', property: 'exactlyOncePerJob' },
      ],
    }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ store, notifier }) {
      return {
        async handle({ job }) {
          await store.incrBy('seen:' + job, 1);
          await notifier.send(job);
          return 'done';
        },
      };
    }`);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  assert.ok(results.tests[0].schedules > 1);
});

/** Kleppmann's fencing example: leases with tokens, a pause, and storage that checks tokens or not. */
function fencingSuite({ services }) {
  return {
    subject: subject({
      leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
      storage: { $: 'remote', name: 'storage', methods: ['write'] },
    }),
    services: { leases: services.leases(), storage: services.fencedStorage() },
    properties: {
      writesInLeaseOrder: {
        end(world) {
          const grants = world.services.state('leases').grants;
          let newest = -1;
          for (const write of world.services.state('storage').accepted) {
            const lease = grants.findLastIndex((g) => g.worker === write.worker && g.at <= write.at);
            if (lease < newest) {
              world.violate('writesInLeaseOrder', `${write.worker} wrote ${write.key} after a newer lease holder had written it: its lease had run out`);
              return;
            }
            newest = lease;
          }
        },
      },
    },
    scenarios: [{
      name: 'two workers, one lease, and a worker may freeze',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
      pauses: [{ worker: 'blue', until: 'leases' }, { worker: 'blue', ms: 2000 }],
      // Blue's wake at every point after its lease ran out: about 11 700 steps.
      limits: { maxLatencyMs: 100, maxDelays: 0, maxWork: 24_000 },
      tests: [{ name: 'no write from an expired lease is accepted', property: 'writesInLeaseOrder' }],
    }],
  };
}

test('a pause explored at every point exposes a writer whose lease ran out', async () => {
  const results = await runWorker(fencingSuite, leaseHolder('1'));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /blue wrote file after a newer lease holder had written it/);
  const ops = t.trace.map((s) => s.operation);
  for (const step of ['pause', 'wake']) assert.ok(ops.includes(step), `the trace shows the ${step}: ${ops.join(' ')}`);
});

test('fencing tokens checked by the storage make the same pause harmless', async () => {
  const results = await runWorker(fencingSuite, leaseHolder('token'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('lease grants and accepted writes name the request that made them, so a suite can tell two deliveries of one worker apart', async () => {
  const seen = [];
  const suite = ({ services }) => ({
    ...fencingSuite({ services }),
    properties: {
      ownToken: {
        end(world) {
          const { grants } = world.services.state('leases');
          for (const write of world.services.state('storage').accepted) {
            seen.push([write.request, grants.find((g) => g.token === write.token)?.request]);
          }
        },
      },
    },
    scenarios: [{
      name: 'one worker handles two jobs at once',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'blue', job: 'job-2', at: 0 }],
      limits: { maxLatencyMs: 100, maxDelays: 0 },
      tests: [{ name: 'each write carries its own request\'s token', property: 'ownToken' }],
    }],
  });
  const results = await runWorker(suite, leaseHolder('token'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  assert.ok(seen.length > 0);
  for (const [write, grant] of seen) {
    assert.match(write, /^job-[12] #1$/);
    assert.equal(grant, write, 'the grant whose token a write carries was taken by the same request');
  }
});

/** Two doctors on call; each asks to go off call if the other stays on: write skew. */
function onCallSuite({ services }) {
  return {
    subject: subject({ db: { $: 'remote', name: 'db', methods: ['begin', 'select', 'update', 'commit', 'rollback'] } }),
    services: { db: services.transactional({ tables: { wards: { rows: [{ id: 'icu' }] }, doctors: { rows: [{ id: 'alice', onCall: true }, { id: 'bob', onCall: true }] } } }) },
    properties: {
      someoneOnCall: {
        end(world) {
          const onCall = [...world.services.state('db').committed.doctors.values()].filter((d) => d.onCall);
          if (onCall.length === 0) world.violate('someoneOnCall', 'nobody is on call any more');
        },
      },
    },
    scenarios: [{
      name: 'alice and bob ask for leave at once',
      deliveries: [{ worker: 'blue', job: 'alice', at: 0 }, { worker: 'green', job: 'bob', at: 0 }],
      tests: [{ name: 'at least one doctor stays on call', property: 'someoneOnCall' }],
    }],
  };
}

const leaveWorker = (isolation) => `
  export function createWorker({ db }) {
    return {
      async handle({ job }) {
        const tx = await db.begin('${isolation}');
        const onCall = await db.select(tx, 'doctors', { onCall: true });
        if (onCall.length < 2) { await db.rollback(tx); return 'done'; }
        await db.update(tx, 'doctors', job, { onCall: false });
        try { await db.commit(tx); } catch { /* refused: stays on call */ }
        return 'done';
      },
    };
  }`;

test('snapshot isolation lets two transactions skew; serializable refuses one', async () => {
  const skewed = await runWorker(onCallSuite, leaveWorker('snapshot'));
  assert.equal(skewed.status, 'fail', JSON.stringify(skewed, null, 1));
  assert.match(skewed.tests[0].message, /nobody is on call/);
  assert.ok(skewed.tests[0].trace.some((s) => s.service === 'db' && s.operation === 'commit'));
  const serializable = await runWorker(onCallSuite, leaveWorker('serializable'));
  assert.equal(serializable.status, 'pass', JSON.stringify(serializable, null, 1));
});

/** Each doctor goes off call first, then checks that someone else is still on call, in one serializable transaction. */
const updateThenVerifyWorker = `
  export function createWorker({ db }) {
    return {
      async handle({ job }) {
        const tx = await db.begin('serializable');
        await db.update(tx, 'doctors', job, { onCall: false });
        const others = await db.select(tx, 'doctors', { onCall: true });
        if (others.length === 0) { await db.rollback(tx); return 'done'; }
        try { await db.commit(tx); return 'committed'; } catch { return 'refused'; }
      },
    };
  }`;

test('a serializable read is asked again at commit over the transaction\'s own earlier writes', async () => {
  // Alone, the read that follows its own update gives the same answer at commit: it commits.
  const alone = (kit) => ({
    ...onCallSuite(kit),
    scenarios: [{
      name: 'alice asks for leave alone',
      deliveries: [{ worker: 'blue', job: 'alice', at: 0 }],
      tests: [{ name: 'her leave is granted', property: 'allDeliveriesAcked' }],
    }],
    subject: { ...onCallSuite(kit).subject, acked: (outcome) => outcome === 'committed' },
  });
  const granted = await runWorker(alone, updateThenVerifyWorker);
  assert.equal(granted.status, 'pass', JSON.stringify(granted, null, 1));
  // Together, the second commit finds its read changed by the first: someone stays on call.
  const together = await runWorker(onCallSuite, updateThenVerifyWorker);
  assert.equal(together.status, 'pass', JSON.stringify(together, null, 1));
});

/** Each doctor locks some rows for update before counting who is on call. */
const lockingLeaveWorker = (table, where) => `
  export function createWorker({ db }) {
    return {
      async handle({ job }) {
        const tx = await db.begin('snapshot');
        await db.select(tx, '${table}', ${JSON.stringify(where)}, { forUpdate: true });
        const onCall = await db.select(tx, 'doctors', { onCall: true });
        if (onCall.length < 2) { await db.rollback(tx); return 'done'; }
        await db.update(tx, 'doctors', job, { onCall: false });
        try { await db.commit(tx); } catch { /* refused: stays on call */ }
        return 'done';
      },
    };
  }`;

test('a row selected for update conflicts only with a commit that changed it, as in PostgreSQL', async () => {
  const suite = (kit) => ({ ...onCallSuite(kit), limits: { maxWork: 20_000 } });
  // Both lock the ward's row and change only their own: a lock is not a
  // change, so both commits go through and nobody stays on call.
  const lockedOnly = await runWorker(suite, lockingLeaveWorker('wards', { id: 'icu' }));
  assert.equal(lockedOnly.status, 'fail', JSON.stringify(lockedOnly, null, 1));
  assert.match(lockedOnly.tests[0].message, /nobody is on call/);
  // Both lock every on-call row, which the other changes: one commit is refused.
  const lockedWritten = await runWorker(suite, lockingLeaveWorker('doctors', { onCall: true }));
  assert.equal(lockedWritten.status, 'pass', JSON.stringify(lockedWritten, null, 1));
});

test('a rate-limited provider refuses calls over its rate with a 429', async () => {
  const suite = ({ services }) => ({
    subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
    services: { mail: services.rateLimited({ perSecond: 1 }) },
    scenarios: [{
      name: 'two e-mails at once',
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }, { worker: 'green', job: 'b', at: 0 }],
      tests: [{ name: 'both delivered', property: 'allDeliveriesAcked' }],
    }],
  });
  const results = await runWorker(suite, `
    export function createWorker({ mail }) {
      return { async handle({ job }) { try { await mail.send(job); return 'done'; } catch (e) { return e.message; } } };
    }`);
  const [t] = results.tests;
  assert.equal(t.status, 'fail');
  assert.match(t.message, /429 Too Many Requests/);
  assert.ok(t.trace.some((s) => s.service === 'mail' && /failed: 429/.test(s.result)));
});

test('a broker hands a message to another worker when its visibility timeout passes', async () => {
  const suite = ({ services }) => ({
    subject: subject({
      queue: { $: 'remote', name: 'queue', methods: ['receive', 'ack'] },
      provider: { $: 'remote', name: 'provider', methods: ['send'] },
    }),
    services: { queue: services.broker({ messages: [{ id: 'm1', body: 'hello' }], visibilityTimeoutMs: 1000 }) },
    effects: [{ target: 'provider', method: 'send', key: (args) => args[0], label: 'e-mail' }],
    limits: { maxLatencyMs: 10, maxDelays: 0 },
    scenarios: [{
      name: 'two consumers, one slow',
      deliveries: [{ worker: 'blue', job: 'poll-1', at: 0 }, { worker: 'green', job: 'poll-2', at: 1200 }],
      expect: ['m1'],
      tests: [{ name: 'the message is sent once', property: 'exactlyOncePerJob' }],
    }],
  });
  const results = await runWorker(suite, `
    export function createWorker({ clock, queue, provider }) {
      return {
        async handle() {
          const message = await queue.receive('jobs');
          if (!message) return 'done';
          await clock.sleep(1500);
          await provider.send(message.id);
          try { await queue.ack(message.receipt); } catch { /* stale: someone else has it now */ }
          return 'done';
        },
      };
    }`);
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /m1 got 2 e-mails \(by blue and green\)/);
});

test('scenarios set their own effects and limits; a suite without claims needs no claimKeys', async () => {
  const suite = {
    subject: subject({ provider: { $: 'remote', name: 'provider', methods: ['send'] } }),
    effects: [{ target: 'provider', method: 'send', label: 'notification' }],
    scenarios: [
      { name: 'provider up', deliveries: [{ worker: 'blue', job: 'j', at: 0 }], tests: [{ name: 'sent when up', property: 'exactlyOncePerJob' }] },
      {
        name: 'provider down',
        effects: [{ target: 'provider', method: 'send', label: 'notification', fail: () => 'provider unavailable' }],
        limits: { maxSchedules: 7 },
        deliveries: [{ worker: 'blue', job: 'j', at: 0 }],
        tests: [{ name: 'sent when down', property: 'exactlyOncePerJob' }],
      },
    ],
  };
  const results = await runWorker(suite, `
    export function createWorker({ provider }) {
      return { async handle({ job }) { try { await provider.send(job); } catch { /* gives up */ } return 'done'; } };
    }`);
  assert.equal(results.tests[0].status, 'pass');
  assert.equal(results.tests[1].status, 'fail');
  assert.deepEqual(results.tests[1].budget, { schedules: 7, steps: 3000, work: 8000 });
  assert.ok(results.tests[1].trace.some((s) => /failed: provider unavailable/.test(s.result)));
});

test('trace steps name the service, the request, the line of code and the whole value', async () => {
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['set', 'get'] }, provider: { $: 'remote', name: 'provider', methods: ['send'] } }),
    effects: [{ target: 'provider', method: 'send', label: 'notification' }],
    scenarios: [{ name: 'one job', deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }], tests: [{ name: 'sent twice?', property: 'exactlyOncePerJob' }] }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ store, provider }) {
      return {
        async handle({ job }) {
          await store.set('booking:' + job, JSON.stringify({ guest: 'Ada Lovelace', room: 214, nights: ['2026-03-14', '2026-03-15'] }));
          await provider.send(job);
          await provider.send(job);
          return 'done';
        },
      };
    }`);
  const [t] = results.tests;
  assert.equal(t.status, 'fail');
  const set = t.trace.find((s) => s.operation === 'set');
  assert.equal(set.service, 'store');
  assert.equal(set.request, 'job-7 #1');
  assert.equal(set.site, 'src/worker.js:5:23');
  assert.match(set.result, /…/);
  assert.match(set.detail, /"nights":\["2026-03-14","2026-03-15"\]/);
  assert.deepEqual(t.trace.filter((s) => s.operation === 'send').map((s) => s.site), ['src/worker.js:6:26', 'src/worker.js:7:26']);
});

test('a lease that runs out is a step of its own in the trace', async () => {
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'get'] } }),
    claimKeys: '^lease:',
    properties: { show: { end: (world) => world.violate('show', 'show the trace') } },
    scenarios: [{ name: 'one job', deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }], tests: [{ name: 'trace', property: 'show' }] }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ clock, store }) {
      return {
        async handle() {
          await store.setIfAbsent('lease:job-7', 'blue', { ttlMs: 100 });
          await clock.sleep(250);
          await store.get('lease:job-7');
          return 'done';
        },
      };
    }`);
  const expired = results.tests[0].trace.find((s) => s.operation === 'expired');
  assert.deepEqual({ at: expired.at, worker: expired.worker, key: expired.key }, { at: 100, worker: 'blue', key: 'lease:job-7' });
  assert.match(expired.result, /blue's lease ran out/);
});
