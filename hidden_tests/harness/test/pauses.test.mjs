// Pauses until a worker's leases have run out: the frozen holder must wake
// after another worker could have taken its lease over and used it, so a lock
// whose holder acts on a lease it lost is caught.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leaseHolder, runWorker, subject } from './inline.mjs';
import { takePause } from '../pauses.mjs';
import { FakeStore } from '../store.mjs';
import { Services } from '../services.mjs';
import { serviceKit } from '../service-kit.mjs';
import { checkSuite } from '../suite.mjs';

/** Two workers, one lease from services.leases(), storage that checks fencing tokens; blue may freeze past its lease. */
function leaseSuite({ services }) {
  return {
    subject: subject({
      leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
      storage: { $: 'remote', name: 'storage', methods: ['write'] },
    }),
    services: { leases: services.leases(), storage: services.fencedStorage() },
    properties: {
      writesInLeaseOrder: {
        end(world) {
          const { grants } = world.services.state('leases');
          let newest = -1;
          for (const write of world.services.state('storage').accepted) {
            const lease = grants.findLastIndex((g) => g.worker === write.worker && g.at <= write.at);
            if (lease < newest) {
              world.violate('writesInLeaseOrder', `${write.worker} wrote ${write.key} after a newer lease holder had written it`);
              return;
            }
            newest = lease;
          }
        },
      },
    },
    scenarios: [{
      name: 'two workers, one lease; blue may freeze until its lease ran out',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
      pauses: [{ worker: 'blue', until: 'leases' }],
      // Blue's wake at every point from its lease's end on, and at the slow
      // pace a freeze between its grant and the answer: about 10 000 steps.
      limits: { maxLatencyMs: 100, maxDelays: 0, maxWork: 20_000 },
      tests: [{ name: 'no write from an expired lease is accepted', property: 'writesInLeaseOrder' }],
    }],
  };
}

test('a lease holder frozen until its lease ran out wakes after another worker took over and wrote', async () => {
  const results = await runWorker(leaseSuite, leaseHolder('1'));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /blue wrote file after a newer lease holder had written it/);
  const at = (predicate) => t.trace.findIndex(predicate);
  const pause = at((s) => s.worker === 'blue' && s.operation === 'pause');
  const takeover = at((s) => s.worker === 'green' && s.operation === 'acquire' && /^granted/.test(s.result));
  const greenWrote = at((s) => s.worker === 'green' && s.operation === 'write');
  const wake = at((s) => s.worker === 'blue' && s.operation === 'wake');
  const blueWrote = at((s) => s.worker === 'blue' && s.operation === 'write');
  assert.ok(pause >= 0 && pause < takeover && takeover < greenWrote && greenWrote < wake && wake < blueWrote,
    t.trace.map((s) => `${s.at} ${s.worker} ${s.operation} ${s.result}`).join('\n'));
  assert.match(t.trace[pause].result, /until its lease file ran out .* it wakes between 1000 and 3000 ms/);
});

test('the same frozen holder is harmless when the storage checks fencing tokens', async () => {
  const results = await runWorker(leaseSuite, leaseHolder('token'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a holder may freeze between its lease\'s grant and hearing of it: a fence read from the clock then is later than the next grant', async () => {
  const results = await runWorker(leaseSuite, leaseHolder('clock.now()'));
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(t.message, /blue wrote file after a newer lease holder had written it/);
  const steps = t.trace.map((s) => `${s.worker} ${s.operation}`);
  const at = (step) => steps.indexOf(step);
  assert.ok(at('blue acquire') < at('blue pause') && at('blue pause') < at('green write') && at('green write') < at('blue answer')
    && at('blue answer') < at('blue write'), t.trace.map((s) => `${s.at} ${s.worker} ${s.operation} ${s.result}`).join('\n'));
  assert.match(t.trace[at('blue acquire')].result, /its answer is on its way back until \d+ ms/);
});

test('a store lease frozen past its expiry: another worker takes the key and the frozen one writes after it', async () => {
  const order = new WeakMap();
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'set', 'compareAndDelete'] } }),
    claimKeys: '^lock:',
    properties: {
      writesInLockOrder: {
        onStore(world, op, before, value) {
          const seen = order.get(world) ?? { takes: [], newest: -1 };
          order.set(world, seen);
          if (op.name === 'setIfAbsent' && value === true) seen.takes.push(op.worker);
          if (op.name !== 'set') return;
          const take = seen.takes.lastIndexOf(op.worker);
          if (take < seen.newest) world.violate('writesInLockOrder', `${op.worker} wrote file after ${seen.takes[seen.newest]}, which took lock:file after it`);
          seen.newest = Math.max(seen.newest, take);
        },
      },
    },
    scenarios: [{
      name: 'two workers, one lock with a 1 s lease; blue may freeze until it ran out',
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
      pauses: [{ worker: 'blue', until: 'leases' }],
      limits: { maxLatencyMs: 100, maxDelays: 0 },
      tests: [{ name: 'writes come in the order the lock was taken', property: 'writesInLockOrder' }],
    }],
  };
  const results = await runWorker(suite, `
    export function createWorker({ worker, clock, store }) {
      return {
        async handle() {
          while (!(await store.setIfAbsent('lock:file', worker, { ttlMs: 1000 }))) await clock.sleep(600);
          await store.set('file', 'written by ' + worker);
          await store.compareAndDelete('lock:file', worker);
          return 'done';
        },
      };
    }`);
  const [t] = results.tests;
  assert.equal(t.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(t.message, 'blue wrote file after green, which took lock:file after it');
  const ops = t.trace.filter((s) => ['expired', 'wake'].includes(s.operation) || (s.operation === 'set'));
  assert.deepEqual(ops.map((s) => `${s.worker} ${s.operation}`), ['blue expired', 'green set', 'blue wake', 'blue set']);
});

test('a pause until leases ran out wakes in a window from their end (or ms, if later) to two lease lengths after', () => {
  /** Pauses blue at 300 ms, holding a store lease and a service lease that end at 1000 ms and 1200 ms. */
  const pauseAt300 = (spec, { leases = true } = {}) => {
    const store = new FakeStore(/^lock:/);
    const services = new Services({ leases: serviceKit.leases() }, {});
    if (leases) {
      store.apply('setIfAbsent', ['lock:a', 'blue', { ttlMs: 1000 }], 'blue', 0);
      services.answer({ target: 'leases', name: 'acquire', args: ['b', 'blue', 1000] }, { worker: 'blue', job: 'j', at: 200, id: 'op1', record() {} });
    }
    const steps = [];
    const world = {
      now: 300, store, services, frozen: new Map(), frozenSince: new Map(), wakeWindows: new Map(), pausesUsed: new Set(), pausesTaken: 0,
      step: (worker, operation, key, result) => steps.push(result),
    };
    takePause(world, { spec: { worker: 'blue', ...spec }, index: 0 });
    return { until: world.frozen.get('blue'), from: world.wakeWindows.get('blue'), said: steps[0] };
  };
  // From the last lease's end (1200 ms) to two lease lengths (2 × 1000 ms) after it, each point explored.
  assert.deepEqual(pauseAt300({ until: 'leases' }), {
    until: 3200, from: 1200,
    said: 'the process freezes until its leases lock:a, b ran out (a GC pause or a stalled disk); it wakes between 1200 and 3200 ms: every point in between is explored',
  });
  // ms later than the leases' end moves the window's start.
  assert.deepEqual(pauseAt300({ until: 'leases', ms: 1500 }).from, 1800);
  // ms later than the whole window: frozen for ms, as a pause of ms.
  assert.deepEqual(pauseAt300({ until: 'leases', ms: 5000 }), {
    until: 5300, from: undefined,
    said: 'the process freezes for 5000 ms, past its leases lock:a, b (a GC pause or a stalled disk); it wakes at 5300 ms',
  });
  // No lease held: a pause of ms (at least 1 ms), as before.
  assert.deepEqual(pauseAt300({ until: 'leases' }, { leases: false }), {
    until: 301, from: undefined, said: 'the process freezes for 1 ms (a GC pause or a stalled disk); it wakes at 301 ms',
  });
  assert.equal(pauseAt300({ ms: 200 }).until, 500);
});

test('the suite check takes ms beside until: \'leases\', and refuses what a pause cannot mean', () => {
  const suite = (pauses) => ({
    subject: subject({}),
    claimKeys: '^lock:',
    scenarios: [{ name: 's', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], pauses, tests: [{ name: 't', property: 'allDeliveriesAcked' }] }],
  });
  assert.deepEqual(checkSuite(suite([{ worker: 'blue', until: 'leases', ms: 5000 }, { worker: 'blue', ms: 20 }, { worker: 'blue', until: 'leases' }])), []);
  const problems = checkSuite(suite([{ worker: 'blue' }, { worker: 'blue', until: 'leases', ms: -1 }, { worker: 'blue', until: 'lease' }, { worker: 'blue', ms: 5, untill: 'leases' }]));
  assert.deepEqual(problems.map((p) => p.field), [
    'scenarios[0].pauses[0]', 'scenarios[0].pauses[1].ms', 'scenarios[0].pauses[2].until', 'scenarios[0].pauses[3].untill',
  ]);
});

test('a pause until: \'leases\' needs leases it can see: claimKeys, or a service with leasesOf', () => {
  const suite = ({ claimKeys, services, scenarioServices } = {}) => ({
    subject: subject({}),
    ...(claimKeys === undefined ? {} : { claimKeys }),
    ...(services === undefined ? {} : { services }),
    scenarios: [{
      name: 's',
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      pauses: [{ worker: 'blue', ms: 20 }, { worker: 'blue', until: 'leases' }],
      ...(scenarioServices === undefined ? {} : { services: scenarioServices }),
      tests: [{ name: 't', property: 'allDeliveriesAcked' }],
    }],
  });
  const blind = checkSuite(suite());
  assert.deepEqual(blind.map((p) => p.field), ['scenarios[0].pauses[1].until']);
  assert.match(blind[0].message, /never wait for a learner's lock/);
  assert.deepEqual(checkSuite(suite({ claimKeys: '^lock:' })), []);
  assert.deepEqual(checkSuite(suite({ services: { leases: serviceKit.leases() } })), []);
  assert.deepEqual(checkSuite(suite({ scenarioServices: { leases: serviceKit.leases() } })), []);
  // A service that keeps no leases does not help.
  assert.deepEqual(checkSuite(suite({ services: { tokens: serviceKit.tokens() } })).map((p) => p.field), ['scenarios[0].pauses[1].until']);
});

test('a service\'s leaseMethods name its own methods, and only a service that reports leases has them', () => {
  const suite = (leases) => ({ subject: subject({}), services: { leases }, scenarios: [{ name: 's', deliveries: [{ worker: 'blue', job: 'a', at: 0 }], tests: [{ name: 't', property: 'allDeliveriesAcked' }] }] });
  const kit = serviceKit.leases();
  assert.deepEqual(checkSuite(suite(kit)), []);
  const problems = [
    ...checkSuite(suite({ ...kit, leaseMethods: ['aquire'] })),
    ...checkSuite(suite({ ...kit, leaseMethods: 'acquire' })),
    ...checkSuite(suite({ ...kit, leasesOf: undefined })),
  ];
  assert.deepEqual(problems.map((p) => p.field), ['services.leases.leaseMethods', 'services.leases.leaseMethods', 'services.leases.leaseMethods']);
  assert.match(problems[0].fix, /did you mean "acquire"/);
  assert.match(problems[2].message, /the service reports none/);
});
