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
import { checkSuite } from '../suite.mjs';
import { Services } from '../services.mjs';

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

/**
 * The same lookup against a rows service: blue reads the row from it and
 * caches it; green, at the same moment, changes the row, deletes the cache, and
 * deletes it again `waitMs` later, its wait split at 100 ms. The service's calls
 * take 10 to 400 ms, the store's up to 50. Blue's read may take effect at 10 ms,
 * before green's change, and answer at 400 ms.
 */
function serviceFillSuite({ reads = ['read'] } = {}) {
  return {
    subject: subject({
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'delete'] },
      rows: { $: 'remote', name: 'rows', methods: ['read', 'update'] },
    }),
    services: {
      rows: {
        state: () => ({ row: 'old', seen: [] }),
        methods: {
          read(state, args, call) {
            state.seen.push({ worker: call.worker, row: state.row, at: call.at });
            return state.row;
          },
          update(state, [row]) {
            state.row = row;
            return true;
          },
        },
        latencyMs: [10, 400],
        writes: ['update'],
        ...(reads ? { reads, view: (state) => ({ row: state.row }) } : {}),
        describe: (method, args, reply) => (method === 'read' ? `"${reply}"` : `row is now "${args[0]}"`),
      },
    },
    properties: {
      freshCache: {
        end(world) {
          const cached = world.store.entry('cache', world.now)?.value;
          const { row, seen } = world.services.state('rows');
          const reads = seen.map((r) => `${r.worker} read "${r.row}" at ${r.at} ms`).join(', ');
          if (cached !== undefined && cached !== row) world.violate('freshCache', `the cache holds "${cached}" while the row is "${row}" (${reads})`);
        },
      },
    },
    limits: { maxLatencyMs: 50, maxDelays: 3 },
    scenarios: [{
      name: 'a lookup while the row changes',
      deliveries: [{ worker: 'blue', job: 'lookup', at: 0 }, { worker: 'green', job: 'change', at: 0 }],
      tests: [{ name: 'the cache never keeps the old row', property: 'freshCache' }],
    }],
  };
}

/** Blue's lookup, or green's change with its second delete `waitMs` after the first (in one sleep unless split). */
const lookupOrChangeRow = (waitMs, { split = true } = {}) => `
  export function createWorker({ clock, store, rows }) {
    return {
      async handle({ job }) {
        if (job === 'lookup') {
          await store.set('cache', await rows.read());
          return 'done';
        }
        await rows.update('new');
        await store.delete('cache');
        ${split ? `await clock.sleep(100);
        await clock.sleep(${waitMs - 100});` : `await clock.sleep(${waitMs});`}
        await store.delete('cache');
        return 'done';
      },
    };
  }`;

test('a service read may answer as the service stood when it took effect, its logs kept', async () => {
  const results = await runWorker(serviceFillSuite(), lookupOrChangeRow(300));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'the cache holds "old" while the row is "new" (blue read "old" at 10 ms)');
  const read = t.trace.find((s) => s.operation === 'read');
  assert.match(read.result, /^"old" \(as rows stood at 10 ms: the call took effect then, and its answer came back now\)/, JSON.stringify(t.trace, null, 1));
  assert.ok(read.at > 10, JSON.stringify(read));
});

test('an older answer may come back as late as the read allows, while the world goes on', async () => {
  const results = await runWorker(serviceFillSuite(), lookupOrChangeRow(420, { split: false }));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  const read = t.trace.find((s) => s.operation === 'read');
  assert.match(read.result, /^"old" \(as rows stood at 10 ms: .*\) \(its answer is on its way back until 400 ms\)/, JSON.stringify(read));
  const arrival = t.trace.find((s) => s.operation === 'answer');
  assert.deepEqual([arrival.at, arrival.result], [400, 'the answer of read() arrives (it took effect at 10 ms)']);
});

test('without reads, a service read answers as the service stands when it arrives', async () => {
  const results = await runWorker(serviceFillSuite({ reads: null }), lookupOrChangeRow(300));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a second delete after a service read and a cache write at their slowest keeps the cache fresh', async () => {
  const results = await runWorker(serviceFillSuite(), lookupOrChangeRow(500));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('reads name methods of the service and come with the view they read', () => {
  const suite = serviceFillSuite();
  const { rows } = suite.services;
  const fields = (service) => checkSuite({ ...suite, services: { rows: service } }).map((p) => [p.field, p.message]);
  assert.deepEqual(fields({ ...rows, reads: ['reed'] }), [['services.rows.reads', 'names "reed", which is not one of its methods']]);
  assert.deepEqual(fields({ ...rows, view: undefined }), [['services.rows.view', 'view(state), the part of the state its reads see must be a function']]);
  assert.deepEqual(fields({ ...rows, reads: undefined }), [['services.rows.view', 'is only used by reads']]);
});

test('a service answers each older view held since a read could first have taken effect, and its reads cannot assign', () => {
  const definition = {
    state: () => ({ row: 1, log: [] }),
    methods: {
      read: (state, args, call) => state.log.push(call.at) && state.row,
      bump(state) { state.row += 1; },
      touch(state) { state.log.push('touched'); },
      rename(state) { state.row = 'renamed'; },
    },
    reads: ['read', 'rename'],
    view: (state) => ({ row: state.row }),
  };
  const services = new Services({ rows: definition }, {});
  const call = (name, at) => services.answer({ target: 'rows', name, args: [] }, { worker: 'blue', job: 'j', at, id: name });
  call('bump', 100);
  call('touch', 150);
  call('bump', 200);
  assert.deepEqual(services.viewsSince('rows', 0, 50, 300), [{ view: { row: 1 }, at: 50 }, { view: { row: 2 }, at: 100 }]);
  assert.deepEqual(services.viewsSince('rows', 100, 100, 300), [{ view: { row: 2 }, at: 100 }], 'a change at the moment the read was sent');
  assert.deepEqual(services.viewsSince('rows', 200, 200, 300), []);
  const stale = services.answer({ target: 'rows', name: 'read', args: [] }, { worker: 'blue', job: 'j', at: 300, id: 'r' }, { view: { row: 1 }, at: 50 });
  assert.deepEqual([stale.value, services.state('rows').row, services.state('rows').log], [1, 3, ['touched', 50]]);
  assert.throws(() => call('rename', 300), TypeError);
});

test('a service whose answers change on their own (changesAt) answers as of each moment before a turn, beside its older views', () => {
  const definition = {
    state: () => ({ row: 1 }),
    methods: { read: (state) => state.row, bump(state) { state.row += 1; } },
    reads: ['read'],
    view: (state) => ({ row: state.row }),
    changesAt: [120, 250, 400],
  };
  const services = new Services({ rows: definition }, {});
  services.answer({ target: 'rows', name: 'bump', args: [] }, { worker: 'blue', job: 'j', at: 100, id: 'b1' });
  services.answer({ target: 'rows', name: 'bump', args: [] }, { worker: 'blue', job: 'j', at: 200, id: 'b2' });
  assert.deepEqual(services.viewsSince('rows', 0, 50, 300), [
    { view: { row: 1 }, at: 50 }, { view: { row: 2 }, at: 100 }, { view: { row: 2 }, at: 120 }, { view: { row: 3 }, at: 200 },
  ]);
  assert.deepEqual(services.viewsSince('rows', 210, 220, 300), [{ view: { row: 3 }, at: 220 }], 'only the turn at 250 since');
  assert.deepEqual(services.viewsSince('rows', 250, 250, 300), [], 'a turn at the moment the read was sent');
});

/**
 * An index whose second segment lands at 50 ms, listed by a worker at 20 ms
 * with calls of up to 100 ms; the worker stores how many segments it counted
 * and when the listing came back. A listing that came back after 50 ms and
 * counted one segment took effect before the landing.
 */
function landingSuite({ changesAt = [50] } = {}) {
  return {
    subject: subject({
      store: { $: 'remote', name: 'store', methods: ['set'] },
      index: { $: 'remote', name: 'index', methods: ['list'] },
    }),
    services: {
      index: {
        methods: { list: (state, args, call) => (call.at >= 50 ? ['seg-1', 'seg-2'] : ['seg-1']) },
        latencyMs: [0, 100],
        ...(changesAt ? { reads: ['list'], changesAt } : {}),
        describe: (method, args, reply) => `${reply.length} segments`,
      },
    },
    properties: {
      countsWhatLanded: {
        end(world) {
          const [count, at] = String(world.store.entry('count', world.now)?.value).split('@').map(Number);
          if (at >= 50 && count < 2) world.violate('countsWhatLanded', `blue heard of ${count} segment at ${at} ms, after the second landed`);
        },
      },
    },
    limits: { maxLatencyMs: 10, maxDelays: 1 },
    scenarios: [{
      name: 'a listing while a segment lands',
      deliveries: [{ worker: 'blue', job: 'count', at: 0 }],
      tests: [{ name: 'what a listing answered after the landing includes it', property: 'countsWhatLanded' }],
    }],
  };
}

const countSegments = `
  export function createWorker({ clock, store, index }) {
    return {
      async handle() {
        const start = clock.now();
        await clock.sleep(20);
        const segments = await index.list();
        await store.set('count', segments.length + '@' + (clock.now() - start));
        return 'done';
      },
    };
  }`;

test('a listing made before its service changed on its own may answer after the change', async () => {
  const results = await runWorker(landingSuite(), countSegments);
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /^blue heard of 1 segment at 120 ms, after the second landed/);
  const list = t.trace.find((s) => s.operation === 'list');
  assert.match(list.result, /^1 segments \(as index stood at 20 ms: the call took effect then, and its answer came back now\)/, JSON.stringify(t.trace, null, 1));
});

test('without changesAt, a listing answers as the service stands when it arrives', async () => {
  const results = await runWorker(landingSuite({ changesAt: null }), countSegments);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('changesAt lists moments of a service with reads', () => {
  const suite = landingSuite();
  const { index } = suite.services;
  const fields = (service) => checkSuite({ ...suite, services: { index: service } }).map((p) => [p.field, p.message]);
  assert.deepEqual(fields(index), []);
  assert.deepEqual(fields({ ...index, changesAt: [50.5, -1] }), [['services.index.changesAt', 'must list moments in whole milliseconds > 0']]);
  assert.deepEqual(fields({ ...index, changesAt: 50 }), [['services.index.changesAt', 'must list moments in whole milliseconds > 0']]);
  assert.deepEqual(fields({ ...index, reads: undefined }), [['services.index.changesAt', 'is only used by reads']]);
});
