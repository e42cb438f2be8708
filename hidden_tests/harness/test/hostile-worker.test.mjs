// A worker process that says anything it likes cannot crash, stall or confuse
// the supervisor: every malformed message fails the worker's tests with a
// message for the learner, and nothing of the harness shows in it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runHidden } from '../hidden.mjs';
import { repoWithLock, lockSuite } from './helpers.mjs';

const hostPath = fileURLToPath(new URL('../testdata/hostile/host.mjs', import.meta.url));

/** What the learner reads for each misbehaviour. */
const CASES = {
  'oversized-frame': /worker blue sent a message of \d+ bytes \(the limit is \d+\)/,
  'not-json': /worker blue sent a message that is not JSON/,
  'wrong-seq': /worker blue sent an answer to a step it was not given/,
  'op-out-of-order': /worker blue sent a call numbered out of order/,
  'undeclared-target': /worker blue sent a call to a service it was not given/,
  'forged-settle': /worker blue sent the end of a delivery it was not given/,
  'oversized-args': /worker blue sent a call with malformed or oversized arguments/,
  'unknown-event': /worker blue sent an event of an unknown kind/,
  'malformed-output': /worker blue sent a malformed report of its output/,
  'draws-go-back': /worker blue sent a malformed count of its random draws/,
  'exits-at-once': /the process of worker (blue|green) exited with code 0|worker (blue|green) did not start/,
  chatty: /worker (blue|green) spoke when it was not asked|did not start as expected/,
};

async function runHostile(behaviour) {
  const repoDir = repoWithLock('atomic');
  fs.writeFileSync(`${repoDir}/behaviour.txt`, behaviour);
  return runHidden({ suite: await lockSuite(), repoDir, sandbox: true, outputLimitBytes: 1 << 20, hostPath });
}

for (const [behaviour, expected] of Object.entries(CASES)) {
  test(`a worker that misbehaves (${behaviour}) fails its tests with a clear message`, async () => {
    const results = await runHostile(behaviour);
    assert.notEqual(results.status, 'pass');
    const failed = results.tests.filter((t) => t.status !== 'pass');
    assert.ok(failed.length > 0);
    assert.ok(failed.some((t) => expected.test(t.message)), JSON.stringify(results, null, 1));
    for (const t of results.tests) {
      assert.doesNotMatch(`${t.message} ${t.output}`, /\/(opt|work|tmp)\/|hidden_tests|\.mjs|node:internal|\n\s+at /, 'no harness internals in what the learner reads');
    }
  });
}

test('a worker cannot smuggle harness paths into a start-up error', async () => {
  const results = await runHostile('stack-trace');
  assert.equal(results.status, 'error');
  assert.doesNotMatch(results.message, /harness|host\.mjs|\n\s+at /, results.message);
});
