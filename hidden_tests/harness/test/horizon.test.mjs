// A schedule that reaches the scenario's horizon with work still scheduled is
// told as that, never as a deadlock or as work the harness cannot see.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

test('code still waiting when virtual time runs out is told what it waited for and when', async () => {
  const results = await runHidden({ suite: await lockSuite(), repoDir: repoWithLock('waits-past-horizon'), sandbox: true, outputLimitBytes: 1 << 20 });
  const released = testNamed(results, 'a worker that finishes releases its lock');
  assert.equal(released.status, 'fail');
  assert.match(released.message, /had not finished when virtual time reached 120 s, the longest this scenario runs: it was still waiting for a timer of (blue|green), due at 200000 ms/);
  assert.doesNotMatch(released.message, /deadlock|cannot see/);
});
