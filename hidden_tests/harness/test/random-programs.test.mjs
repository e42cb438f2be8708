// Source sets against sleep sets alone on small generated programs: two
// workers that claim, renew and release a lease, read and write keys, sleep and
// read the clock, one of them possibly frozen (for a while, or until its lease
// ran out) and the other arriving at a fixed moment or at any point of the
// first one's delivery. On each, source sets must explore exactly the kinds of
// schedule sleep sets alone explore. The programs come from a seeded generator,
// so every run checks the same ones: three of its first forty on which the
// search before the deferrable wake (source-sets.mjs) left kinds out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { kindOf } from '../compare-reductions.mjs';
import { inlineRepo, subject } from './inline.mjs';

/** A small deterministic generator of numbers in [0, 1) (mulberry32). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One worker's statements: two to five steps about the lease lock:a and the keys r1 and r2. */
function statements(pick) {
  const steps = {
    claim: () => `if (!(await store.setIfAbsent('lock:a', worker, { ttlMs: ${pick([300, 1000])} }))) return 'busy';`,
    claimRetried: () => `while (!(await store.setIfAbsent('lock:a', worker, { ttlMs: ${pick([300, 1000])} }))) await clock.sleep(${pick([250, 600])});`,
    read: () => `seen = await store.get('${pick(['lock:a', 'r1', 'r2'])}');`,
    write: () => `await store.set('${pick(['r1', 'r2'])}', worker + ':' + seen);`,
    writeTime: () => `await store.set('${pick(['r1', 'r2'])}', worker + '@' + clock.now());`,
    sleep: () => `await clock.sleep(${pick([50, 150, 400])});`,
    release: () => `await store.compareAndDelete('lock:a', worker);`,
    renew: () => `await store.expire('lock:a', 1000);`,
  };
  const names = Object.keys(steps);
  return Array.from({ length: 2 + Math.floor(pick.random() * 4) }, () => steps[pick(names)]()).join('\n        ');
}

/** The program and suite of one seed. */
function generated(seed) {
  const random = generator(seed);
  const pick = Object.assign((options) => options[Math.floor(random() * options.length)], { random });
  const source = `
    export function createWorker({ worker, clock, store }) {
      return {
        async handle() {
          let seen = null;
          if (worker === 'blue') {
            ${statements(pick)}
          } else {
            ${statements(pick)}
          }
          return 'done';
        },
      };
    }`;
  const green = pick([{ during: 0 }, { at: 0 }, { at: 120 }]);
  const pauses = pick([[], [{ worker: 'blue', until: 'leases' }], [{ worker: 'blue', until: 'leases' }], [{ worker: 'blue', ms: 500 }]]);
  const suite = {
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['setIfAbsent', 'set', 'compareAndDelete', 'get', 'expire'] } }),
    claimKeys: '^lock:',
    properties: { none: { end() {} } },
    scenarios: [{
      name: `program ${seed}`,
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', ...green }],
      pauses,
      limits: { maxLatencyMs: 100, maxDelays: pick([0, 1]), maxWork: 200_000 },
      tests: [{ name: 'every schedule is explored', property: 'none' }],
    }],
  };
  return { suite, repo: inlineRepo({ 'src/worker.js': source }) };
}

/** How often each kind of schedule was explored with one reduction. */
async function kinds(reduction, suite, repoDir) {
  const seen = new Map();
  const observe = (scenario, run) => {
    const key = `${run.pace} | ${run.end} | ${kindOf(run.steps)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  };
  const results = await runHidden({ suite, repoDir, sandbox: true, outputLimitBytes: 1 << 20, reduction, observe });
  assert.equal(results.status, 'pass', JSON.stringify(results.tests.filter((t) => t.status !== 'pass')));
  return seen;
}

/** Programs on which the search before the deferrable wake left kinds of schedule out. */
const SEEDS = [9, 13, 17];

for (const seed of SEEDS) {
  test(`source sets explore every kind of schedule sleep sets alone explore on generated program ${seed}`, async () => {
    const { suite, repo } = generated(seed);
    const sleep = await kinds('sleep-sets', suite, repo);
    const source = await kinds(true, suite, repo);
    assert.deepEqual([...source.keys()].sort(), [...sleep.keys()].sort());
    assert.ok([...source.values()].every((n) => n === 1), 'a kind of schedule was explored twice');
  });
}
