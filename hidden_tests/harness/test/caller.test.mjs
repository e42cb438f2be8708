// Tests of the caller's time limit (caller.mjs): an attempt not answered within
// it is one the caller stopped waiting for; its answer does not count, the
// caller retries as the scenario says, and the attempt it left runs on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { checkSuite } from '../suite.mjs';

/** One job, one worker; the caller waits 2 s for an answer and retries after `afterNoAnswerMs`. */
const callerSuite = ({ afterNoAnswerMs = [], maxAttempts = 1 } = {}) => ({
  subject: subject({ notifier: { $: 'remote', name: 'notifier', methods: ['send'] } }),
  effects: [{ target: 'notifier', method: 'send', label: 'notification', latencyMs: [0, 0] }],
  scenarios: [{
    name: 'a caller that waits 2 s',
    redeliver: { everyMs: 1000, maxAttempts, answerWithinMs: 2000, afterNoAnswerMs },
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
    tests: [
      { name: 'answered in time', property: 'allDeliveriesAcked' },
      { name: 'one notification', property: 'exactlyOncePerJob' },
    ],
  }],
});

/** A worker whose attempt n sleeps `ms[n - 1]` (0 past the list), then sends (every attempt) and answers 'done'. */
const sleeping = (ms) => `
  export function createWorker({ clock, notifier }) {
    return {
      async handle({ job, attempt }) {
        const ms = ${JSON.stringify(ms)}[attempt - 1] ?? 0;
        if (ms > 0) await clock.sleep(ms);
        await notifier.send(job);
        return 'done';
      },
    };
  }
`;

const testNamed = (results, name) => results.tests.find((t) => t.name === name);

test('an answer after the caller stopped waiting does not acknowledge the delivery', async () => {
  const results = await runWorker(callerSuite(), sleeping([3000]));
  const acked = testNamed(results, 'answered in time');
  assert.equal(acked.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(acked.message, /job-7 \(blue\) ended with "no answer within 2000 ms" and was never completed/);
  const late = acked.trace.find((s) => s.operation === 'handle');
  assert.equal(late.at, 3000);
  assert.match(late.result, /^returned "done", after the caller stopped waiting \(no answer within 2000 ms\)$/);
});

test('an answer at the limit itself is in time', async () => {
  const results = await runWorker(callerSuite(), sleeping([2000]));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('the caller retries once its limit has passed, while the attempt it left runs on and its calls still land', async () => {
  const results = await runWorker(callerSuite({ afterNoAnswerMs: [0], maxAttempts: 3 }), sleeping([3000]));
  assert.equal(testNamed(results, 'answered in time').status, 'pass', JSON.stringify(results, null, 1));
  // Both attempts send: the one the caller left too, after it stopped waiting.
  const { status, trace } = testNamed(results, 'one notification');
  assert.equal(status, 'fail');
  const steps = trace.filter((s) => s.operation !== 'timer').map((s) => `${s.at} ${s.worker} ${s.operation} ${s.request ?? ''} ${s.result}`);
  assert.deepEqual(steps, [
    '0 blue receive job-7 #1 delivery 1',
    '2001 blue receive job-7 #2 delivery 2 (no answer to the one before within 2000 ms)',
    '2001 blue send job-7 #2 done {"id":"notifier-blue.op1"}',
    '2001 blue handle job-7 #2 returned "done"',
    '3000 blue send job-7 #1 done {"id":"notifier-blue.op2"}',
    '3000 blue handle job-7 #1 returned "done", after the caller stopped waiting (no answer within 2000 ms)',
  ]);
});

test('the caller retries after each wait it has, and no more', async () => {
  // Attempt 1 never answers in time; attempt 2 comes 500 ms after the limit
  // and does not either; with no wait left, attempt 3 never comes.
  const results = await runWorker(callerSuite({ afterNoAnswerMs: [500], maxAttempts: 5 }), sleeping([3000, 3000, 0]));
  const acked = testNamed(results, 'answered in time');
  assert.equal(acked.status, 'fail', JSON.stringify(results, null, 1));
  const received = acked.trace.filter((s) => s.operation === 'receive').map((s) => `${s.at} ${s.result}`);
  assert.deepEqual(received, ['0 delivery 1', '2500 delivery 2 (no answer to the one before within 2000 ms)']);
});

test('a caller limit is a positive number of ms, and its waits need it', () => {
  const noLimit = callerSuite({ afterNoAnswerMs: [0] });
  delete noLimit.scenarios[0].redeliver.answerWithinMs;
  assert.deepEqual(checkSuite(noLimit).map((p) => p.field), ['scenarios[0].redeliver.afterNoAnswerMs']);
  const zero = callerSuite();
  zero.scenarios[0].redeliver.answerWithinMs = 0;
  assert.deepEqual(checkSuite(zero).map((p) => p.field), ['scenarios[0].redeliver.answerWithinMs']);
  const negative = callerSuite({ afterNoAnswerMs: [-1] });
  assert.deepEqual(checkSuite(negative).map((p) => p.field), ['scenarios[0].redeliver.afterNoAnswerMs']);
});

test('an answer that comes late, before the retry is due, changes nothing of the retry', async () => {
  const results = await runWorker(callerSuite({ afterNoAnswerMs: [5000], maxAttempts: 3 }), sleeping([3000]));
  const acked = testNamed(results, 'answered in time');
  assert.equal(acked.status, 'pass', JSON.stringify(results, null, 1));
  const { trace } = testNamed(results, 'one notification');
  const steps = trace.filter((s) => s.operation === 'receive' || s.operation === 'handle').map((s) => `${s.at} ${s.request} ${s.result}`);
  assert.deepEqual(steps, [
    '0 job-7 #1 delivery 1',
    '3000 job-7 #1 returned "done", after the caller stopped waiting (no answer within 2000 ms)',
    '7000 job-7 #2 delivery 2 (no answer to the one before within 2000 ms)',
    '7000 job-7 #2 returned "done"',
  ]);
});
