// Small generated programs for the reduction's test (source-sets.test.mjs): two
// workers that claim, renew and release a lease, read and write keys, sleep and
// read the clock, one of them possibly frozen (for a while, or until its lease
// ran out) and the other arriving at a fixed moment or at any point of the
// first one's delivery. The generator is seeded, so a seed names one program.

import { inlineRepo, subject } from './inline.mjs';

/** A small deterministic generator of numbers in [0, 1) (mulberry32). */
export function generator(seed) {
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

/** The suite and repository of the program of one seed. */
export function generated(seed) {
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
  return [suite, inlineRepo({ 'src/worker.js': source })];
}
