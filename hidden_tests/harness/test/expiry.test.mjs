// Keys that run out under a call of their writer, and calls made just before a
// pause: the clock stops where a lease runs out while its holder still works,
// and a frozen worker's calls leave when it wakes, so neither a lease shorter than
// the work it covers nor a cleanup that waits a little longer than a pause passes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { sendOnWake } from '../pauses.mjs';

/** A row store whose reads take 5 to 400 ms. */
const slowRows = () => ({
  state: () => ({ row: 'row-1' }),
  methods: { read: (state) => state.row },
  latencyMs: [5, 400],
});

/** One worker fills a key under a lease of `leaseMs` around a read of up to 400 ms. */
function fillSuite() {
  return {
    subject: subject({
      store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'compareAndSet'] },
      rows: { $: 'remote', name: 'rows', methods: ['read'] },
    }),
    services: { rows: slowRows() },
    properties: {
      filled: {
        end(world) {
          const value = world.store.entry('cache', world.now)?.value;
          if (value !== 'row-1') world.violate('filled', `the cache holds ${JSON.stringify(value ?? null)} once every read is over`);
        },
      },
    },
    limits: { maxLatencyMs: 50, maxDelays: 1 },
    scenarios: [{
      name: 'one lookup fills the cache',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }],
      tests: [{ name: 'the read row ends in the cache', property: 'filled' }],
    }],
  };
}

const filler = (leaseMs) => `
  export function createWorker({ store, rows }) {
    return {
      async handle() {
        if (!(await store.setIfAbsent('cache', 'lease', { ttlMs: ${leaseMs} }))) return 'done';
        const row = await rows.read();
        await store.compareAndSet('cache', 'lease', row);
        return 'done';
      },
    };
  }`;

test('a fill lease shorter than the read it covers runs out under it, and the fill is lost', async () => {
  const results = await runWorker(fillSuite(), filler(200));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'the cache holds null once every read is over');
  const steps = t.trace.map((s) => `${s.at} ${s.operation} ${s.result}`);
  assert.ok(steps.includes('200 expired its time to live ran out ("lease")'), steps.join('\n'));
  assert.ok(t.trace.findIndex((s) => s.operation === 'expired') < t.trace.findIndex((s) => s.operation === 'read'), steps.join('\n'));
});

test('a fill lease longer than the slowest read holds', async () => {
  const results = await runWorker(fillSuite(), filler(1000));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

/** Blue copies src to dst and may freeze for a second; green updates src, writes dst, and writes dst again `againMs` later. */
function copySuite() {
  return {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['get', 'set'] } }),
    properties: {
      newestCopy: {
        end(world) {
          const value = world.store.entry('dst', world.now)?.value;
          if (value !== 'new') world.violate('newestCopy', `dst holds ${JSON.stringify(value)} once both are done`);
        },
      },
    },
    limits: { maxLatencyMs: 50, maxDelays: 1 },
    scenarios: [{
      name: 'a copy meets an update, and the copier may freeze for a second',
      store: { src: 'old', dst: 'old' },
      pauses: [{ worker: 'blue', ms: 1000 }],
      deliveries: [{ worker: 'blue', job: 'copy', at: 0 }, { worker: 'green', job: 'update', at: 0 }],
      tests: [{ name: 'the copy ends up new', property: 'newestCopy' }],
    }],
  };
}

const copier = (againMs) => `
  export function createWorker({ worker, clock, store }) {
    return {
      async handle({ job }) {
        if (job === 'copy') {
          await store.set('dst', await store.get('src'));
          return 'done';
        }
        await store.set('src', 'new');
        await store.set('dst', 'new');
        await clock.sleep(${againMs});
        await store.set('dst', 'new');
        return 'done';
      },
    };
  }`;

test('a write made just before a pause leaves when the worker wakes: writing again 1010 ms later is not enough', async () => {
  const results = await runWorker(copySuite(), copier(1010));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'dst holds "old" once both are done');
  const at = (predicate) => t.trace.findIndex(predicate);
  const wake = at((s) => s.worker === 'blue' && s.operation === 'wake');
  const stale = at((s) => s.worker === 'blue' && s.operation === 'set');
  const again = t.trace.findLastIndex((s) => s.worker === 'green' && s.operation === 'set');
  assert.ok(wake >= 0 && wake < again && again < stale, t.trace.map((s) => `${s.at} ${s.worker} ${s.operation} ${s.result}`).join('\n'));
});

test('writing again later than a pause and a call can last holds', async () => {
  const results = await runWorker(copySuite(), copier(1100));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a waking worker sends only the calls made the moment it froze; a call made earlier had left and keeps its window', () => {
  const made = (id, issuedAt) => ({
    id, worker: 'blue', issuedAt, soonest: issuedAt + 100, readyAt: issuedAt + 400, deadline: issuedAt + 500,
  });
  const world = { now: 1200, frozenSince: new Map([['blue', 1000]]), pending: [made('early', 600), made('at-freeze', 1000)] };
  sendOnWake(world, 'blue');
  const windows = world.pending.map(({ id, issuedAt, soonest, readyAt, deadline }) => ({ id, issuedAt, soonest, readyAt, deadline }));
  assert.deepEqual(windows, [
    { id: 'early', issuedAt: 600, soonest: 700, readyAt: 1000, deadline: 1100 },
    { id: 'at-freeze', issuedAt: 1200, soonest: 1300, readyAt: 1600, deadline: 1700 },
  ]);
});

/** Blue and green each try once to take one lock and, if they got it, work 300 ms and send; a send by both is a double send. */
function tryOnceSuite() {
  return {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'incrBy'] } }),
    properties: {
      sentOnce: {
        end(world) {
          const sent = Number(world.store.entry('sent', world.now)?.value ?? 0);
          if (sent > 1) world.violate('sentOnce', `sent ${sent} times`);
        },
      },
    },
    limits: { maxLatencyMs: 200, maxDelays: 1 },
    scenarios: [{
      name: 'two workers get the same job at once',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-1', at: 0 }],
      tests: [{ name: 'the job is sent once', property: 'sentOnce' }],
    }],
  };
}

const tryOnce = (leaseMs) => `
  export function createWorker({ worker, clock, store }) {
    return {
      async handle() {
        if (!(await store.setIfAbsent('lock', worker, { ttlMs: ${leaseMs} }))) return 'done';
        await clock.sleep(300);
        await store.incrBy('sent', 1);
        return 'done';
      },
    };
  }`;

test('a claim in flight when another worker\'s lease runs out may land just after it, while the holder still works', async () => {
  const results = await runWorker(tryOnceSuite(), tryOnce(100));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'sent 2 times');
  const steps = t.trace.map((s) => `${s.at} ${s.worker} ${s.operation} ${s.result}`);
  const expired = t.trace.findIndex((s) => s.operation === 'expired');
  const second = t.trace.findIndex((s, i) => i > expired && s.operation === 'setIfAbsent');
  assert.ok(expired >= 0 && second > expired && t.trace[second].at === t.trace[expired].at, steps.join('\n'));
});

test('a lease longer than the work and a call holds against a claim in flight', async () => {
  const results = await runWorker(tryOnceSuite(), tryOnce(1000));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});
