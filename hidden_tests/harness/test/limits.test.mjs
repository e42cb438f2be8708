// Exploration has three outcomes, never two: a budget that runs out is an error
// that says so, never a pass. Budgets are counts, so the outcome repeats exactly.
// Memory, time-out and output verdicts come from what happened to the worker's
// process, never from what its code printed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { RESTART_WORK } from '../explorer.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

const EXACTLY_ONCE = 'exactly one notification per job in every schedule';
const RELEASED = 'a worker that finishes releases its lock';
const run = async (variant, limits, options = {}) => runHidden({
  suite: await lockSuite(limits), repoDir: repoWithLock(variant), sandbox: true, outputLimitBytes: 1 << 20, ...options,
});

test('a schedule budget that runs out is an error that says why, never a pass', async () => {
  const results = await run('polling', { maxSchedules: 2 });
  assert.equal(results.status, 'error');
  const test1 = testNamed(results, EXACTLY_ONCE);
  assert.equal(test1.status, 'error');
  assert.match(test1.message, /did not finish, so this test is not proven: it explored 2 schedules, its budget/);
  assert.match(test1.message, /made up to \d+ store and service calls/);
  assert.deepEqual(test1.budget, { schedules: 2, steps: 3000, work: 8000 });
});

test('the same budget gives the same outcome on every run', async () => {
  assert.deepEqual(await run('polling', { maxSchedules: 2 }), await run('polling', { maxSchedules: 2 }));
});

test('a schedule longer than the step budget is an error, never a pass', async () => {
  const results = await run('atomic', { maxSteps: 3 });
  assert.equal(results.status, 'error');
  assert.match(testNamed(results, EXACTLY_ONCE).message, /one schedule ran for more than 3 steps without every delivery ending/);
});

test('tests left undecided after another test failed are not passed', async () => {
  const results = await run('sleep-recheck', { maxSchedulesAfterFailure: 0 });
  assert.equal(testNamed(results, EXACTLY_ONCE).status, 'fail');
  const undecided = testNamed(results, RELEASED);
  assert.equal(undecided.status, 'error');
  assert.match(undecided.message, /not decided: the exploration stopped 0 schedules after "exactly one notification per job in every schedule" failed/);
});

test('a worker that hoards memory gets the memory verdict', async () => {
  const results = await run('hoard', {}, { heapMb: 48 });
  assert.equal(results.verdict, 'memory', JSON.stringify(results));
  assert.match(testNamed(results, EXACTLY_ONCE).message, /ran out of memory/);
});

test('printing what a memory failure prints does not choose the verdict', async () => {
  const results = await run('fake-oom', { stepTimeoutMs: 300 });
  assert.equal(results.verdict, 'timeout', JSON.stringify(results));
});

test('a delivery that keeps calling without finishing fails boundedCalls, and its schedule ends there', async () => {
  const suite = await lockSuite({ maxCallsPerDelivery: 10 });
  suite.scenarios = [{
    name: 'one job',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
    tests: [{ name: 'no delivery goes round without end', property: 'boundedCalls' }],
  }];
  const results = await runHidden({ suite, repoDir: repoWithLock('spin'), sandbox: true, outputLimitBytes: 1 << 20 });
  const test1 = results.tests[0];
  assert.equal(test1.status, 'fail', JSON.stringify(results));
  assert.match(test1.message, /job-7 \(blue\) made more than 10 store and service calls without finishing/);
  assert.ok(test1.longest < 20, `the schedule should end at the 11th call, not run on (${test1.longest} steps)`);
});

test('a test is not passed on schedules that a livelock cut short: it is undecided, naming the livelock', async () => {
  const suite = await lockSuite({ maxCallsPerDelivery: 10 });
  suite.scenarios = [{
    name: 'one job',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
    tests: [
      { name: 'no delivery goes round without end', property: 'boundedCalls' },
      { name: 'every delivery is acked', property: 'allDeliveriesAcked' },
    ],
  }];
  const results = await runHidden({ suite, repoDir: repoWithLock('spin'), sandbox: true, outputLimitBytes: 1 << 20 });
  assert.equal(results.tests[0].status, 'fail', JSON.stringify(results));
  const acked = results.tests[1];
  assert.equal(acked.status, 'error', JSON.stringify(results));
  assert.match(acked.message, /^not decided: "no delivery goes round without end" failed in a way that ended 2 schedules early, so this test was not judged on them/);
});

test('a work budget that runs out is an error that gives its numbers, never a pass', async () => {
  const results = await run('polling', { maxWork: 300 });
  assert.equal(results.status, 'error');
  const test1 = testNamed(results, EXACTLY_ONCE);
  assert.equal(test1.status, 'error');
  assert.match(test1.message, /did not finish, so this test is not proven: it ran \d+ steps, its work budget of 300 \(restarts included\), in \d+ schedules/);
  assert.ok(test1.work >= 300 && test1.work < 300 + test1.longest + 10 * 2, `work ${test1.work} should stop just past its budget`);
  assert.deepEqual(test1.budget, { schedules: 2000, steps: 3000, work: 300 });
  assert.deepEqual(await run('polling', { maxWork: 300 }), results, 'the same work budget gives the same outcome');
});

test('work counts every worker restarted for a schedule and every step it ran', async () => {
  const test1 = testNamed(await run('atomic'), EXACTLY_ONCE);
  assert.equal(test1.status, 'pass');
  assert.ok(test1.work >= test1.schedules * (2 * RESTART_WORK + 1) + test1.longest - 1,
    `2 workers restarted for each of ${test1.schedules} schedules, the longest ${test1.longest} steps: work ${test1.work}`);
});

test('a work budget that runs out after a failure leaves the other tests undecided, naming the failure', async () => {
  const atFailure = testNamed(await run('sleep-recheck', { maxSchedulesAfterFailure: 0 }), RELEASED).work;
  const results = await run('sleep-recheck', { maxWork: atFailure });
  assert.equal(testNamed(results, EXACTLY_ONCE).status, 'fail');
  const undecided = testNamed(results, RELEASED);
  assert.equal(undecided.status, 'error');
  assert.match(undecided.message, new RegExp(`not decided: the exploration used its work budget \\(${atFailure} of ${atFailure} steps, `
    + 'restarts included\\) after "exactly one notification per job in every schedule" failed'));
});
