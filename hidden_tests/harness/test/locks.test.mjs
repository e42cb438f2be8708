// Tests of the blocking lock service and of deadlock reports with their cycle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LockService } from '../locks.mjs';
import { runHidden } from '../hidden.mjs';
import { tempDir } from './temp-dirs.mjs';

const testdata = fileURLToPath(new URL('../testdata/', import.meta.url));

async function transfers(orderFile, workers = ['blue', 'green']) {
  const dir = tempDir('transfers');
  fs.cpSync(path.join(testdata, 'transfer-service'), dir, { recursive: true });
  if (orderFile) fs.copyFileSync(path.join(testdata, 'transfer-orders', orderFile), path.join(dir, 'src/order.js'));
  const { default: suite } = await import(`../testdata/transfer-suite.mjs?copy=${Math.random()}`);
  for (const scenario of suite.scenarios) scenario.deliveries.forEach((d, i) => { d.worker = workers[i]; });
  return runHidden({ suite, repoDir: dir, sandbox: true, outputLimitBytes: 1 << 20 });
}

test('locks are exclusive, held by the request that took them, released only by it, and freed when its worker dies', () => {
  const locks = new LockService();
  const job7 = { job: 'job-7', attempt: 1 };
  const job8 = { job: 'job-8', attempt: 1 };
  const blue7 = { worker: 'blue', request: job7 };
  assert.equal(locks.apply('acquire', ['a'], blue7), true);
  assert.equal(locks.ready({ name: 'acquire', args: ['a'] }), false);
  assert.equal(locks.apply('tryAcquire', ['a'], { worker: 'green', request: null }), false);
  assert.equal(locks.apply('tryAcquire', ['a'], { worker: 'blue', request: job8 }), false, 'another request of the holder\'s worker');
  assert.equal(locks.apply('release', ['a'], { worker: 'green', request: job7 }), false);
  assert.equal(locks.apply('release', ['a'], { worker: 'blue', request: job8 }), false, 'another request of the holder\'s worker');
  assert.equal(locks.apply('release', ['a'], { worker: 'blue', request: job7 }), true);
  assert.equal(locks.ready({ name: 'acquire', args: ['a'] }), true);
  locks.apply('acquire', ['b'], blue7);
  locks.apply('acquire', ['c'], { worker: 'blue', request: job8 });
  locks.apply('acquire', ['d'], { worker: 'green', request: null });
  locks.releaseAll('blue');
  assert.deepEqual(locks.held().map(([k]) => k), ['d']);
});

test('opposite lock order deadlocks, and the report names the cycle', async () => {
  const results = await transfers();
  assert.equal(results.status, 'fail');
  const failed = results.tests.find((t) => t.name === 'every transfer completes');
  assert.match(failed.message, /deadlock: blue holds acct:A and waits for acct:B \(held by green\); green holds acct:B and waits for acct:A \(held by blue\)/);
  const waits = failed.trace.filter((s) => s.highlight);
  assert.deepEqual(waits.map((s) => `${s.worker} ${s.operation} ${s.key}`).sort(), ['blue acquire acct:B', 'green acquire acct:A']);
});

test('a global lock order never deadlocks', async () => {
  const results = await transfers('sorted.js');
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('two requests of one worker deadlock on each other\'s locks, and the report names the requests', async () => {
  const results = await transfers(undefined, ['blue', 'blue']);
  assert.equal(results.status, 'fail');
  const failed = results.tests.find((t) => t.name === 'every transfer completes');
  assert.match(failed.message, /deadlock: blue \(A>B #1\) holds acct:A and waits for acct:B \(held by blue \(B>A #1\)\); blue \(B>A #1\) holds acct:B and waits for acct:A \(held by blue \(A>B #1\)\)/);
  const sorted = await transfers('sorted.js', ['blue', 'blue']);
  assert.equal(sorted.status, 'pass', JSON.stringify(sorted, null, 1));
});
