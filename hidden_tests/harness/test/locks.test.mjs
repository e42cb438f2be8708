// Tests of the blocking lock service and of deadlock reports with their cycle.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LockService } from '../locks.mjs';
import { runHidden } from '../hidden.mjs';

const testdata = fileURLToPath(new URL('../testdata/', import.meta.url));

async function transfers(orderFile) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'racecase-transfers-'));
  fs.cpSync(path.join(testdata, 'transfer-service'), dir, { recursive: true });
  if (orderFile) fs.copyFileSync(path.join(testdata, 'transfer-orders', orderFile), path.join(dir, 'src/order.js'));
  const { default: suite } = await import(`../testdata/transfer-suite.mjs?copy=${Math.random()}`);
  return runHidden({ suite, repoDir: dir, sandbox: true, outputLimitBytes: 1 << 20 });
}

test('locks are exclusive, released only by their holder, and freed when a holder dies', () => {
  const locks = new LockService();
  assert.equal(locks.apply('acquire', ['a'], 'blue'), true);
  assert.equal(locks.ready({ name: 'acquire', args: ['a'] }), false);
  assert.equal(locks.apply('tryAcquire', ['a'], 'green'), false);
  assert.equal(locks.apply('release', ['a'], 'green'), false);
  assert.equal(locks.apply('release', ['a'], 'blue'), true);
  assert.equal(locks.ready({ name: 'acquire', args: ['a'] }), true);
  locks.apply('acquire', ['b'], 'blue');
  locks.releaseAll('blue');
  assert.deepEqual(locks.held(), []);
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
