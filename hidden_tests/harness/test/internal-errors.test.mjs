// The harness's own errors (a bug in it or in a suite) reach operators with
// their stacks, in the result record's `internal`, which the runner keeps out of
// what a learner sees; the learner reads only that a test could not be judged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHidden } from '../hidden.mjs';
import { repoWithLock, lockSuite, testNamed } from './helpers.mjs';

const run = async (suite, variant = 'atomic') => runHidden({ suite, repoDir: repoWithLock(variant), sandbox: true, outputLimitBytes: 1 << 20 });

test('a bug in a suite reaches operators with its stack, and the learner as a test that could not be judged', async () => {
  const suite = await lockSuite();
  suite.properties = { brokenProperty: { end() { throw new TypeError('the suite read world.nothing.here'); } } };
  suite.scenarios = [{ ...suite.scenarios[0], tests: [{ name: 'judged by a broken property', property: 'brokenProperty' }] }];
  const results = await run(suite);
  assert.equal(results.status, 'error');
  assert.equal(testNamed(results, 'judged by a broken property').message, 'internal harness error: the scenario could not be judged');
  assert.match(results.internal, /^the same job delivered to two workers at once: TypeError: the suite read world\.nothing\.here\n\s+at /);
});

test('the learner\'s own failures are verdicts, not harness errors', async () => {
  for (const variant of ['atomic', 'check-then-set', 'endless-loop']) {
    const results = await run(await lockSuite(), variant);
    assert.equal(results.internal, undefined, `${variant}: ${results.internal}`);
  }
});
