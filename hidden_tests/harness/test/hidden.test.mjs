// End-to-end tests of the hidden-suite harness on the host: real child processes,
// real module isolation, the fixture service with one lock variant at a time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

const EXACTLY_ONCE = 'exactly one notification per job in every schedule';
const LOCK_RESPECTED = 'nobody overwrites or deletes a live lock owned by another worker';
const run = async (variant, limits) => runHidden({
  suite: await lockSuite(limits), repoDir: repoWithLock(variant), sandbox: true, outputLimitBytes: 1 << 20,
});

test('check-then-set fails with a trace of both workers sending', async () => {
  const results = await run('check-then-set');
  assert.equal(results.status, 'fail');
  const failed = testNamed(results, EXACTLY_ONCE);
  assert.equal(failed.status, 'fail');
  assert.match(failed.message, /job-7 got 2 notifications/);
  const sends = failed.trace.filter((s) => s.operation === 'send');
  assert.deepEqual(sends.map((s) => s.worker).sort(), ['blue', 'green']);
  assert.ok(sends.every((s) => s.highlight));
  assert.equal(testNamed(results, LOCK_RESPECTED).status, 'fail');
});

test('an atomic claim passes every test, with the same results on every run', async () => {
  const first = await run('atomic');
  assert.equal(first.status, 'pass', JSON.stringify(first, null, 1));
  const second = await run('atomic');
  assert.deepEqual(second, first);
});

test('randomness and wall-clock time are virtual, so results repeat exactly', async () => {
  const first = await run('random-token');
  assert.equal(first.status, 'pass', JSON.stringify(first, null, 1));
  assert.deepEqual(await run('random-token'), first);
});

test('an in-process mutex does not help: each worker has its own module graph', async () => {
  const results = await run('in-process-mutex');
  assert.equal(testNamed(results, EXACTLY_ONCE).status, 'fail');
});

test('sleeping before re-checking does not help: both workers wake together', async () => {
  const results = await run('sleep-recheck');
  const failed = testNamed(results, EXACTLY_ONCE);
  assert.equal(failed.status, 'fail');
  assert.ok(failed.trace.some((s) => s.operation === 'timer'));
});

test('a sleep that differs per worker does not help: a write can still be in flight', async () => {
  const failed = testNamed(await run('sleep-jitter'), EXACTLY_ONCE);
  assert.equal(failed.status, 'fail');
  assert.ok(failed.trace.some((s) => /in flight since/.test(s.result)), JSON.stringify(failed.trace));
});

test('retrying an atomic claim a few times is correct and stays fast to explore', async () => {
  const results = await run('polling');
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  assert.ok(testNamed(results, EXACTLY_ONCE).schedules < 500);
});

test('dynamic imports work in every worker and every schedule', async () => {
  const results = await run('dynamic-import');
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a failed side effect is not counted, and a redelivery can still make it', async () => {
  const suite = await lockSuite();
  suite.effects = [{ ...suite.effects[0], fail: (args, call) => call.failures === 0 && 'provider unavailable' }];
  suite.scenarios = [{
    name: 'the provider fails once',
    redeliver: { everyMs: 5000, maxAttempts: 3 },
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
    tests: [{ name: 'sent once despite the failure', property: 'exactlyOncePerJob' }],
  }];
  const results = await runHidden({ suite, repoDir: repoWithLock('atomic'), sandbox: true, outputLimitBytes: 1 << 20 });
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('work that never settles is reported as a deadlock, not a hang', async () => {
  const results = await run('never-settles');
  assert.equal(results.status, 'fail');
  assert.match(testNamed(results, EXACTLY_ONCE).message, /never finished/);
});

test('an endless loop is stopped and reported as a time-out', async () => {
  const results = await run('endless-loop', { stepTimeoutMs: 300 });
  assert.equal(results.verdict, 'timeout');
  assert.equal(testNamed(results, EXACTLY_ONCE).status, 'error');
  assert.match(testNamed(results, EXACTLY_ONCE).message, /did not yield/);
});

test('code blocked without computing is stopped by the wall-clock backstop', async () => {
  const results = await run('blocked', { stepTimeoutMs: 200 });
  assert.equal(results.verdict, 'timeout');
  assert.match(testNamed(results, EXACTLY_ONCE).message, /did not yield within 2000 ms/);
});

test('time-outs count CPU time: a step that waits longer than its budget without computing is not an endless loop', async () => {
  const results = await run('stalls-atomic', { stepTimeoutMs: 100, maxSchedules: 1 });
  assert.notEqual(results.verdict, 'timeout', JSON.stringify(results, null, 1));
  assert.ok(results.tests.every((t) => !/did not yield/.test(t.message ?? '')));
});

test('printing without end hits the output limit', async () => {
  const results = await run('flood');
  assert.equal(results.verdict, 'output-limit');
  assert.ok(results.tests.every((t) => t.status !== 'pass'));
  assert.ok(results.tests.every((t) => t.output.length <= 500));
});

test('a syntax error is an error with the message', async () => {
  const results = await run('syntax-error');
  assert.equal(results.status, 'error');
  assert.match(results.message, /SyntaxError/);
});

test('forging results, patching built-ins and exiting early never pass', async () => {
  const results = await run('forger');
  assert.notEqual(results.status, 'pass');
  assert.ok(results.tests.length === 6 && results.tests.every((t) => t.status !== 'pass'), JSON.stringify(results));
  assert.match(testNamed(results, EXACTLY_ONCE).message, /called process\.exit\(0\) while handling job-7/);
});

test('learner code cannot read files, in its repository or outside it', async () => {
  const results = await run('snoop');
  const failed = testNamed(results, EXACTLY_ONCE);
  assert.equal(failed.status, 'fail');
  assert.ok(failed.trace.some((s) => /node:fs \(readFileSync\) is not available/.test(s.result)), JSON.stringify(failed.trace));
});

test('a run limited to some tests explores only their scenarios, each as in the whole suite', async () => {
  const whole = await run('check-then-set');
  const redelivery = 'a redelivery after success sends nothing';
  const only = await runHidden({
    suite: await lockSuite(), repoDir: repoWithLock('check-then-set'), sandbox: true, outputLimitBytes: 1 << 20,
    only: [EXACTLY_ONCE, redelivery],
  });
  // The first scenario holds two more tests; both come with it, as they would.
  assert.deepEqual(only.tests.map((t) => t.name), [EXACTLY_ONCE, LOCK_RESPECTED, 'a worker that finishes releases its lock', redelivery]);
  for (const t of only.tests) assert.deepEqual(t, testNamed(whole, t.name));
  assert.equal(only.status, 'fail');
});

test('a run limited to a test the suite does not have is refused', async () => {
  const suite = await lockSuite();
  await assert.rejects(() => runHidden({
    suite, repoDir: repoWithLock('atomic'), sandbox: true, outputLimitBytes: 1 << 20, only: ['no such test'],
  }), /the suite has no test named "no such test"/);
});
