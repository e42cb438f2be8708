// Stateful services as a suite sees them: what the kit's services count as
// effects, their latency, their labels in messages, and the service calls that
// are fault points for a scenario's crash and stall.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { serviceKit } from '../service-kit.mjs';
import { checkSuite } from '../suite.mjs';

test('a rate-limited call that its reply refuses is not counted as an effect', async () => {
  const suite = ({ services }) => ({
    subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
    // The provider is down for its first second: its reply refuses with a 503.
    services: {
      mail: services.rateLimited({ perSecond: 10, reply: (args, call) => (call.at < 1000 ? call.reject('503 Service Unavailable') : { ok: true }) }),
    },
    scenarios: [{
      name: 'one e-mail, retried once the provider is back',
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [{ name: 'the e-mail is sent once', property: 'exactlyOncePerJob' }],
    }],
  });
  const results = await runWorker(suite, `
    export function createWorker({ clock, mail }) {
      return {
        async handle({ job }) {
          for (;;) {
            try { await mail.send(job); return 'done'; } catch { await clock.sleep(1000); }
          }
        },
      };
    }`);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('every kit service takes a latencyMs option, checked like any service latency', async () => {
  const options = {
    tokens: {},
    leases: {},
    fencedStorage: {},
    rateLimited: { perSecond: 1 },
    transactional: { tables: {} },
    broker: { messages: [], visibilityTimeoutMs: 1000 },
  };
  assert.deepEqual(Object.keys(options).sort(), Object.keys(serviceKit).sort());
  for (const [name, given] of Object.entries(options)) {
    assert.deepEqual(serviceKit[name]({ ...given, latencyMs: [200, 400] }).latencyMs, [200, 400], name);
    assert.equal(serviceKit[name](given).latencyMs, undefined, `${name} without the option uses the suite's latency`);
  }
  const suite = {
    subject: subject({ ids: { $: 'remote', name: 'ids', methods: ['next'] } }),
    services: { ids: serviceKit.tokens({ latencyMs: [400, 200] }) },
    scenarios: [{ name: 'one', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], tests: [{ name: 'acked', property: 'allDeliveriesAcked' }] }],
  };
  const problems = checkSuite(suite);
  assert.deepEqual(problems.map((p) => p.field), ['services.ids.latencyMs']);

  const slow = ({ services }) => ({
    ...suite,
    services: { ids: services.tokens({ latencyMs: [300, 300] }) },
    properties: { show: { end: (world) => world.violate('show', 'show the trace') } },
    scenarios: [{ ...suite.scenarios[0], tests: [{ name: 'trace', property: 'show' }] }],
  });
  const results = await runWorker(slow, `
    export function createWorker({ ids }) {
      return { async handle() { await ids.next(); return 'done'; } };
    }`);
  const next = results.tests[0].trace.find((s) => s.operation === 'next');
  assert.deepEqual({ at: next.at, issued: next.issued, result: next.result }, { at: 300, issued: 0, result: 'token 1 (in flight since 0 ms)' });
});

/** A payment gateway written in the suite: each charge is recorded for its order, and named by the service's label. */
const gatewaySuite = {
  subject: subject({ gateway: { $: 'remote', name: 'gateway', methods: ['charge'] } }),
  services: {
    gateway: {
      label: 'charge',
      state: () => ({ charges: [] }),
      methods: {
        charge(state, [order], call) {
          state.charges.push(order);
          call.record(order);
          return { chargeId: `ch_${state.charges.length}` };
        },
      },
    },
  },
  scenarios: [{
    name: 'one order',
    deliveries: [{ worker: 'blue', job: 'pay', at: 0 }],
    expect: ['ord-7'],
    tests: [{ name: 'the order is charged once', property: 'exactlyOncePerJob' }],
  }],
};

test('a service\'s label names its recorded calls in messages, as an effect\'s does', async () => {
  const twice = await runWorker(gatewaySuite, `
    export function createWorker({ gateway }) {
      return { async handle() { await gateway.charge('ord-7'); await gateway.charge('ord-7'); return 'done'; } };
    }`);
  assert.match(twice.tests[0].message, /^ord-7 got 2 charges \(by blue and blue\); it must get exactly one$/, JSON.stringify(twice, null, 1));
  const never = await runWorker(gatewaySuite, `
    export function createWorker() {
      return { async handle() { return 'done'; } };
    }`);
  assert.equal(never.tests[0].message, 'ord-7 never got its charge');

  const unnamed = checkSuite({ ...gatewaySuite, services: { gateway: { ...gatewaySuite.services.gateway, label: 7 } } });
  assert.deepEqual(unnamed.map((p) => p.field), ['services.gateway.label']);
  assert.equal(serviceKit.rateLimited({ perSecond: 1, label: 'e-mail' }).label, 'e-mail');
});

/** Takes a lease from the lease service (retrying every 300 ms), writes the report under its token, releases. */
const leaseWriter = `
  export function createWorker({ worker, clock, leases, storage }) {
    return {
      async handle() {
        let token;
        while ((token = await leases.acquire('report', worker, 1000)) === null) await clock.sleep(300);
        await storage.write('report', 'by ' + worker, token);
        await leases.release('report', worker);
        return 'done';
      },
    };
  }`;

test('a crash or stall strikes right after a worker took its lease from a service, not after a refused take', async () => {
  /** The fault struck at blue's granted acquire: the step right before it. */
  const struckAtGrant = (fault) => ({
    end(world) {
      const at = world.trace.findIndex((s) => s.operation === fault);
      const before = world.trace[at - 1];
      if (at < 0 || !(before.worker === 'blue' && before.operation === 'acquire' && /^granted report/.test(before.result))) {
        world.violate(`${fault}AtGrant`, `${fault} after ${JSON.stringify(before ?? null)}`);
      }
    },
  });
  const suite = ({ services }) => ({
    subject: subject({
      leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
      storage: { $: 'remote', name: 'storage', methods: ['write'] },
    }),
    services: { leases: services.leases({ latencyMs: [0, 10] }), storage: services.fencedStorage({ latencyMs: [0, 10] }) },
    limits: { maxDelays: 0 },
    properties: {
      crashAtGrant: struckAtGrant('crash'),
      stallAtGrant: struckAtGrant('stall'),
      onlyGreenWrote: {
        end(world) {
          const writers = world.services.state('storage').accepted.map((w) => w.worker);
          if (writers.join() !== 'green') world.violate('onlyGreenWrote', `the report was written by ${writers.join(' and ') || 'nobody'}`);
        },
      },
    },
    scenarios: [
      {
        name: 'blue dies right after it took the lease',
        crash: { worker: 'blue' },
        deliveries: [{ worker: 'blue', job: 'report', at: 0 }, { worker: 'green', job: 'report', at: 100 }],
        tests: [
          { name: 'the crash strikes at the granted acquire', property: 'crashAtGrant' },
          { name: 'only green writes', property: 'onlyGreenWrote' },
        ],
      },
      {
        // Green may take the lease first: blue's refused acquire (null) is no fault point.
        name: 'blue freezes right after it took the lease',
        stall: { worker: 'blue', ms: 5000 },
        deliveries: [{ worker: 'green', job: 'report', at: 0 }, { worker: 'blue', job: 'report', at: 0 }],
        tests: [{ name: 'the stall strikes at the granted acquire', property: 'stallAtGrant' }],
      },
    ],
  });
  const results = await runWorker(suite, leaseWriter);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  // Both orders of the two first acquires were explored: in one, blue's is refused.
  assert.ok(results.tests[2].schedules > 1, JSON.stringify(results.tests.map((t) => t.schedules)));
});

test('a service of the suite declares which of its methods write: those are fault points', async () => {
  const kv = (writes) => ({
    writes,
    state: () => ({ data: {} }),
    methods: {
      get: (state, [key]) => state.data[key] ?? null,
      put(state, [key, value]) {
        state.data[key] = value;
        return true;
      },
    },
  });
  const suite = (writes) => ({
    subject: subject({ kv: { $: 'remote', name: 'kv', methods: ['get', 'put'] } }),
    services: { kv: kv(writes) },
    properties: { show: { end: (world) => world.violate('show', 'show the trace') } },
    scenarios: [{
      name: 'blue dies after its first write',
      crash: { worker: 'blue' },
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [{ name: 'trace', property: 'show' }],
    }],
  });
  const worker = `
    export function createWorker({ kv }) {
      return { async handle() { await kv.get('a'); await kv.put('a', '1'); await kv.put('b', '2'); return 'done'; } };
    }`;
  for (const writes of [['put'], (method, args, reply) => method === 'put' && reply === true]) {
    const results = await runWorker(suite(writes), worker);
    const ops = results.tests[0].trace.map((s) => `${s.operation} ${s.key}`);
    assert.deepEqual(ops, ['receive a', 'get a', 'put a', 'crash a'], String(writes));
  }
  const problems = checkSuite(suite(['put', 'set']));
  assert.deepEqual(problems.map((p) => [p.field, p.message]), [['services.kv.writes', 'names "set", which is not one of its methods']]);
  assert.deepEqual(checkSuite(suite('put')).map((p) => p.field), ['services.kv.writes']);
});

test('a lease a crashed worker still holds in a service explains an effect that never happened', async () => {
  const suite = ({ services }) => ({
    subject: subject({
      leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
      storage: { $: 'remote', name: 'storage', methods: ['write'] },
    }),
    services: { leases: services.leases(), storage: services.fencedStorage() },
    limits: { maxDelays: 0, maxLatencyMs: 10 },
    scenarios: [{
      name: 'blue dies right after it took a lease that never runs out',
      crash: { worker: 'blue' },
      expect: ['report'],
      deliveries: [{ worker: 'blue', job: 'report', at: 0 }, { worker: 'green', job: 'report', at: 100 }],
      tests: [{ name: 'the report is written once', property: 'exactlyOncePerJob' }],
    }],
  });
  const results = await runWorker(suite, `
    export function createWorker({ worker, clock, leases, storage }) {
      return {
        async handle() {
          for (let attempt = 0; attempt < 3; attempt++) {
            const token = await leases.acquire('report', worker, 3_600_000);
            if (token !== null) { await storage.write('report', 'by ' + worker, token); return 'done'; }
            await clock.sleep(300);
          }
          return 'busy';
        },
      };
    }`);
  assert.equal(results.tests[0].message, 'report never got its write: report is still held by blue, which crashed at 0 ms');
});

test('a crash or stall with after: n strikes right after the worker\'s n-th write, and after is checked', async () => {
  const suite = (fault) => ({
    subject: subject({ kv: { $: 'remote', name: 'kv', methods: ['get', 'put'] } }),
    services: { kv: { writes: ['put'], state: () => ({}), methods: { get: () => null, put: () => true } } },
    properties: { show: { end: (world) => world.violate('show', 'show the trace') } },
    scenarios: [{
      name: 'blue is struck after its second write',
      ...fault,
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [{ name: 'trace', property: 'show' }],
    }],
  });
  const worker = `
    export function createWorker({ kv }) {
      return { async handle() { await kv.put('a', '1'); await kv.get('b'); await kv.put('b', '2'); await kv.put('c', '3'); return 'done'; } };
    }`;
  const ops = async (fault) => (await runWorker(suite(fault), worker)).tests[0].trace.map((s) => `${s.operation} ${s.key}`);
  assert.deepEqual(await ops({ crash: { worker: 'blue', after: 2 } }), ['receive a', 'put a', 'get b', 'put b', 'crash b']);
  assert.deepEqual((await ops({ stall: { worker: 'blue', ms: 50, after: 2 } })).slice(0, 7),
    ['receive a', 'put a', 'get b', 'put b', 'stall b', 'wake ', 'put c']);
  assert.deepEqual(checkSuite(suite({ crash: { worker: 'blue', after: 0 } })).map((p) => p.field), ['scenarios[0].crash.after']);
  assert.deepEqual(checkSuite(suite({ stall: { worker: 'blue', ms: 50, at: 2 } })).map((p) => p.field), ['scenarios[0].stall.at']);
  assert.deepEqual(checkSuite(suite({ stall: { worker: 'blue' } })).map((p) => p.field), ['scenarios[0].stall.ms']);
});

test("a scenario's fault fails a service call before the service sees it", async () => {
  const suite = {
    subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
    services: {
      mail: {
        state: () => ({ seen: 0 }),
        methods: {
          send(state, [job], call) {
            state.seen += 1;
            call.record(job);
            return { ok: true };
          },
        },
      },
    },
    properties: {
      firstFailed: {
        end(world) {
          const sends = world.trace.filter((s) => s.operation === 'send');
          if (!sends[0]?.result.startsWith('failed: 503 mail is down')) world.violate('firstFailed', `the first send was ${sends[0]?.result}`);
          else if (world.services.state('mail').seen !== 1) world.violate('firstFailed', `the service saw ${world.services.state('mail').seen} sends`);
        },
      },
    },
    scenarios: [{
      name: 'the first send fails',
      faults: [{ target: 'mail', method: 'send', fail: (args, call) => call.failures === 0 && '503 mail is down' }],
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [
        { name: 'the e-mail is sent once, on the retry', property: 'exactlyOncePerJob' },
        { name: 'the first send failed at the fault', property: 'firstFailed' },
      ],
    }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ clock, mail }) {
      return {
        async handle({ job }) {
          for (;;) {
            try { await mail.send(job); return 'done'; } catch { await clock.sleep(1000); }
          }
        },
      };
    }`);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  const once = await runWorker(suite, `
    export function createWorker({ mail }) {
      return { async handle({ job }) { try { await mail.send(job); } catch {} return 'done'; } };
    }`);
  assert.equal(once.tests[0].status, 'fail', JSON.stringify(once, null, 1));
});

test('a fault names the store, the locks or a service of the scenario', () => {
  const suite = {
    subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
    services: { mail: serviceKit.rateLimited({ perSecond: 10 }) },
    scenarios: [{
      name: 'one', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], tests: [{ name: 'acked', property: 'allDeliveriesAcked' }],
      faults: [{ target: 'mail', method: 'send', fail: () => true }, { target: 'sms', method: 'send', fail: () => true }],
    }],
  };
  assert.deepEqual(checkSuite(suite).map((p) => p.field), ['scenarios[0].faults[1].target']);
});

test('a call whose first argument is an object shows what the service says it is about, or the object itself', async () => {
  const suite = {
    subject: subject({ db: { $: 'remote', name: 'db', methods: ['transact', 'put'] } }),
    services: {
      db: {
        state: () => ({}),
        methods: { transact: () => ({ ok: true }), put: () => ({ ok: true }) },
        key: (method, [ops]) => (method === 'transact' ? ops.map((op) => op.id).join(' + ') : undefined),
      },
    },
    properties: { show: { end: (world) => world.violate('show', 'show the trace') } },
    scenarios: [{ name: 'one', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], tests: [{ name: 'trace', property: 'show' }] }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ db }) {
      return { async handle() { await db.transact([{ id: 'r-1' }, { id: 'o-1' }]); await db.put({ id: 'r-2' }); return 'done'; } };
    }`);
  const keys = results.tests[0].trace.filter((s) => s.operation === 'transact' || s.operation === 'put').map((s) => s.key);
  assert.deepEqual(keys, ['r-1 + o-1', '{"id":"r-2"}']);
});
