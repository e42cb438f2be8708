// A barrier holds calls to an effect until two different jobs are there at
// once; when that never happens, the learner is told which jobs ended without
// getting there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';

/** Two jobs at once, whose sends must be in flight together. */
const suite = {
  subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
  effects: [{ target: 'mail', method: 'send', label: 'e-mail' }],
  scenarios: [{
    name: 'two jobs at once',
    barrier: true,
    deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
    tests: [{ name: 'both e-mails are sent in parallel', property: 'inFlightTogether' }],
  }],
};

/** A worker that sends the e-mail of every job but `skipped`, for which it answers 'skipped'. */
const sendingAllBut = (skipped) => `
  export function createWorker({ mail }) {
    return {
      async handle({ job }) {
        if (job === ${JSON.stringify(skipped)}) return 'skipped';
        await mail.send(job);
        return 'done';
      },
    };
  }
`;

test('two jobs that both send meet at the barrier', async () => {
  const results = await runWorker(suite, sendingAllBut('none'));
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('a job that ended before the barrier is named beside the one waiting there', async () => {
  const results = await runWorker(suite, sendingAllBut('job-2'));
  assert.equal(results.status, 'fail', JSON.stringify(results, null, 1));
  assert.equal(results.tests[0].message, 'in one schedule the workers could not finish: blue waits in mail.send() for job-1, '
    + 'but no other job ever reached the same step at the same time (job-2 (green) ended with "skipped" before reaching it): '
    + 'two different jobs were never in flight together');
});
