// Tests of slow effects, stalls and lease renewal: a worker that freezes past its
// lease must not act on the shard another worker legitimately took over.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHidden } from '../hidden.mjs';
import { tempDir } from './temp-dirs.mjs';

const testdata = fileURLToPath(new URL('../testdata/', import.meta.url));

async function batch(policy) {
  const dir = tempDir('batch');
  fs.cpSync(path.join(testdata, 'batch-service'), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/policy.js'), policy);
  const { default: suite } = await import(`../testdata/batch-suite.mjs?copy=${Math.random()}`);
  return runHidden({ suite, repoDir: dir, sandbox: true, outputLimitBytes: 1 << 20 });
}
const named = (results, name) => results.tests.find((t) => t.name === name);

test('a fenced worker with an owner-checked heartbeat passes after a stall', async () => {
  const results = await batch("export const FENCED = true;\nexport const RENEW = 'checked';\n");
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});

test('renewing without checking the owner takes back a lease another worker holds', async () => {
  const results = await batch("export const FENCED = true;\nexport const RENEW = 'blind';\n");
  const failed = named(results, 'nobody renews or takes a lease it lost');
  assert.equal(failed.status, 'fail', JSON.stringify(results, null, 1));
  assert.match(failed.message, /blue renewed lock:shard-1 while green's claim on it was live/);
  assert.ok(failed.trace.some((s) => s.operation === 'stall'));
});
