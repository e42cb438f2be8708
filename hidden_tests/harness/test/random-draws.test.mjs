// Random draws are explored: each of a worker's first draws is also tried in
// the other half of [0, 1), and where that changes what the code does the
// scenario is explored again with it moved, so a race that needs two workers
// to pick apart is found although their seeded draws agree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { RESTART_WORK } from '../explorer.mjs';
import { DEFAULT_LIMITS } from '../suite-problems.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

const EXACTLY_ONCE = 'exactly one notification per job in every schedule';
const run = async (variant, limits) => runHidden({
  suite: await lockSuite(limits), repoDir: repoWithLock(variant), sandbox: true, outputLimitBytes: 1 << 20,
});

test('a lock key picked at random fails once a draw goes the other way, and the trace and message say so', async () => {
  const results = await run('random-shard');
  const failed = testNamed(results, EXACTLY_ONCE);
  assert.equal(failed.status, 'fail', JSON.stringify(failed, null, 1));
  assert.match(failed.message, /job-7 got 2 notifications.*\(in this schedule (blue|green)'s 1st random number was drawn from the other half of \[0, 1\)\)/);
  const moved = failed.trace.filter((s) => s.operation === 'random');
  assert.equal(moved.length, 1, 'one draw moved per schedule');
  assert.match(moved[0].result, /1st random number .* is drawn from the other half of \[0, 1\) this time/);
  const keys = new Set(failed.trace.filter((s) => s.operation === 'setIfAbsent').map((s) => s.key));
  assert.deepEqual([...keys].sort(), ['lock:job-7:a', 'lock:job-7:b']);
  assert.deepEqual(await run('random-shard'), results, 'the same verdict and trace on every run');
});

test('without moving draws the seeded ones agree and the same lock passes: the moved draw is what finds the race', async () => {
  const results = await run('random-shard', { flipDraws: 0 });
  assert.equal(testNamed(results, EXACTLY_ONCE).status, 'pass', JSON.stringify(results, null, 1));
});

test('draws that only make a token or a back-off\'s length change nothing the code does: the scenario is not explored again for them', async () => {
  for (const variant of ['random-token', 'random-backoff']) {
    const moved = await run(variant);
    const unmoved = await run(variant, { flipDraws: 0 });
    assert.equal(moved.status, 'pass', variant);
    assert.deepEqual(moved.tests.map((t) => [t.name, t.status, t.schedules]), unmoved.tests.map((t) => [t.name, t.status, t.schedules]), variant);
    // Each of the two workers' first draws tried once: one replay of one schedule each (its steps and two restarts).
    const replays = 2 * DEFAULT_LIMITS.flipDraws;
    const extra = moved.tests.map((t, i) => t.work - unmoved.tests[i].work);
    assert.ok(extra.some((w) => w > 0), `${variant}: the draws were tried`);
    assert.ok(moved.tests.every((t, i) => extra[i] <= replays * (t.longest + 2 * RESTART_WORK)), `${variant}: each draw tried once, nothing explored again: ${extra}`);
  }
});

test('a fix that draws nothing explores exactly as much as before: moving draws costs only code that draws', async () => {
  const atomic = await run('atomic');
  const unmoved = await run('atomic', { flipDraws: 0 });
  assert.deepEqual(atomic, unmoved);
});
