// Source sets skip tries, never kinds of schedule: on code that holds, they
// explore exactly the kinds of schedule sleep sets alone explore, each once;
// on code that fails, the verdict and the first counterexample are those of
// the search without any reduction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHidden } from '../hidden.mjs';
import { kindOf } from '../compare-reductions.mjs';
import { repoWithLock, lockSuite } from './helpers.mjs';
import { inlineRepo, leaseHolder, subject } from './inline.mjs';
import { generated } from './random-programs.mjs';
import { outcomesWith } from './outcomes.mjs';
import { tempDir } from './temp-dirs.mjs';

const testdata = fileURLToPath(new URL('../testdata/', import.meta.url));

/** A fresh copy of a fixture service, with files replaced. */
function fixture(service, files = {}) {
  const dir = tempDir(service);
  fs.cpSync(path.join(testdata, service), dir, { recursive: true });
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
  return dir;
}

/** Explores with one reduction; returns the results and how often each kind of schedule was explored. */
async function exploreWith(reduction, suite, repoDir) {
  const kinds = new Map();
  const observe = (scenario, run) => {
    const key = `${scenario} | ${run.pace} | ${run.end} | ${kindOf(run.steps)}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  };
  const results = await runHidden({ suite, repoDir, sandbox: true, outputLimitBytes: 1 << 20, reduction, observe });
  return { results, kinds };
}

/**
 * Two workers on one lease of services.leases(), blue free to freeze until it
 * ran out: its wake may come at any later point, also after the clock moved on
 * past steps that did not wait for it.
 */
const frozenHolder = ({ services }) => ({
  subject: subject({
    leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
    storage: { $: 'remote', name: 'storage', methods: ['write'] },
  }),
  services: { leases: services.leases(), storage: services.fencedStorage() },
  properties: { none: { end() {} } },
  scenarios: [{
    name: 'blue may freeze until its lease ran out',
    deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
    pauses: [{ worker: 'blue', until: 'leases' }],
    limits: { maxLatencyMs: 100, maxDelays: 0, maxWork: 100_000 },
    tests: [{ name: 'every schedule is explored', property: 'none' }],
  }],
});

const holding = {
  'an atomic claim': async () => [await lockSuite(), repoWithLock('atomic')],
  'a claim retried after a sleep': async () => [await lockSuite(), repoWithLock('polling')],
  'transfers that lock in one order': async () => [
    (await import(`../testdata/transfer-suite.mjs?copy=${Math.random()}`)).default,
    fixture('transfer-service', { 'src/order.js': fs.readFileSync(path.join(testdata, 'transfer-orders/sorted.js')) }),
  ],
  'a fenced batch with an owner-checked heartbeat': async () => [
    (await import(`../testdata/batch-suite.mjs?copy=${Math.random()}`)).default,
    fixture('batch-service', { 'src/policy.js': "export const FENCED = true;\nexport const RENEW = 'checked';\n" }),
  ],
  'a lease holder that may wake at any point after its lease ran out': async () => [frozenHolder, inlineRepo({ 'src/worker.js': leaseHolder('clock.now()') })],
  // Three of the generator's first forty programs, on which the search before
  // the deferrable wake (source-sets.mjs) left kinds out.
  ...Object.fromEntries([9, 13, 17].map((seed) => [`generated program ${seed}`, async () => generated(seed)])),
};

for (const [name, make] of Object.entries(holding)) {
  test(`source sets explore every kind of schedule sleep sets alone explore, each once: ${name}`, async () => {
    const [suite, repo] = await make();
    const sleep = await exploreWith('sleep-sets', suite, repo);
    const source = await exploreWith(true, suite, repo);
    assert.equal(sleep.results.status, 'pass', JSON.stringify(sleep.results.tests.filter((t) => t.status !== 'pass')));
    assert.equal(source.results.status, 'pass');
    assert.deepEqual([...source.kinds.keys()].sort(), [...sleep.kinds.keys()].sort());
    assert.ok([...source.kinds.values()].every((n) => n === 1), 'a kind of schedule was explored twice');
    const work = (r) => r.results.tests.reduce((sum, t) => Math.max(sum, t.work ?? 0), 0);
    assert.ok(work(source) <= work(sleep), `source sets ran more work (${work(source)}) than sleep sets alone (${work(sleep)})`);
  });
}

test('with source sets a failing test has the first counterexample of the search without reduction', async () => {
  const run = async (reduction) => runHidden({
    suite: await lockSuite(), repoDir: repoWithLock('check-then-set'), sandbox: true, outputLimitBytes: 1 << 20, reduction,
  });
  const failing = (results) => results.tests.filter((t) => t.status === 'fail').map(({ name, message, trace }) => ({ name, message, trace }));
  const statuses = (results) => results.tests.map(({ name, status }) => ({ name, status }));
  const off = await run(false);
  const on = await run(true);
  assert.equal(off.status, 'fail');
  assert.deepEqual(failing(on), failing(off));
  assert.deepEqual(statuses(on), statuses(await run('sleep-sets')), 'the other tests are decided as with sleep sets alone');
});

// The reduction's independence is judged on what a store call did where it was
// taken (events.mjs, takenFootprint): the generated programs claim, release and
// renew one lease, so their calls fail as often as they write. Every outcome
// the search without reduction reaches, the reduced search reaches too. The
// seeds are those of the first thirty programs whose search without reduction
// finishes within its budget and on which judging calls by what they did
// leaves schedules out.
for (const seed of [0, 2, 5, 14, 19, 23, 24]) {
  test(`the reduced search reaches every outcome of the search without reduction: generated program ${seed}`, async () => {
    const [suite, repo] = generated(seed);
    const all = await outcomesWith(false, suite, repo);
    const reduced = await outcomesWith(true, suite, repo);
    assert.equal(all.results.status, 'pass', JSON.stringify(all.results.tests.filter((t) => t.status !== 'pass')));
    assert.deepEqual([...reduced.outcomes].sort(), [...all.outcomes].sort());
  });
}
