// An exploration that does not finish names the ties it met: one worker's timer
// due at the very moment of another of its events, tried in both orders.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runHidden } from '../hidden.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

/** The message of the first test of a run whose work budget is far too small for any exploration to finish. */
async function unfinishedMessageWithHeartbeat(heartbeatMs) {
  const repoDir = repoWithLock('polling-heartbeat');
  const lock = path.join(repoDir, 'src/locks/job-lock.js');
  fs.writeFileSync(lock, fs.readFileSync(lock, 'utf8').replace('const HEARTBEAT_MS = 25;', `const HEARTBEAT_MS = ${heartbeatMs};`));
  const results = await runHidden({ suite: await lockSuite({ maxWork: 300 }), repoDir, sandbox: true, outputLimitBytes: 1 << 20 });
  const first = testNamed(results, 'exactly one notification per job in every schedule');
  assert.equal(first.status, 'error');
  assert.match(first.message, /did not finish/);
  return first.message;
}

test('a heartbeat with the period of the poll beside it is named as a tie', async () => {
  const message = await unfinishedMessageWithHeartbeat(25);
  assert.match(message, /a timer fell due at the same moment as another event of its worker \(first at 25 ms, (blue|green)'s 25 ms timer and its 25 ms timer\)/);
});

test('a heartbeat whose period does not line up with the poll makes no tie', async () => {
  const message = await unfinishedMessageWithHeartbeat(24);
  assert.doesNotMatch(message, /same moment/);
});
