// What a learner reads when a search runs out of budget names the suspects the
// code gave it: loops that wait only when it set timers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unfinishedMessage } from '../unfinished.mjs';
import { noTies } from '../ties.mjs';

const limits = { maxSchedules: 300, maxSchedulesAfterFailure: 20, maxSteps: 2000, maxWork: 4000 };

/** A search that used its whole work budget, its busiest delivery making `calls` calls and setting `timers` timers. */
function outOfWork(calls, timers) {
  return { unfinished: 'work', work: 4001, schedules: 7, busiest: { calls, timers }, ties: noTies(), cutShort: 0 };
}

test('without timers, the calls themselves are named, not polling loops', () => {
  const message = unfinishedMessage(outOfWork(11, 0), limits);
  assert.match(message, /it ran 4001 steps, its work budget of 4000/);
  assert.match(message, /No timer was set, so the orders come from the calls themselves/);
  assert.doesNotMatch(message, /polling/);
});

test('with timers, polling and retry loops are the first suspects', () => {
  const message = unfinishedMessage(outOfWork(11, 3), limits);
  assert.match(message, /Look for polling or retry loops/);
});
