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
