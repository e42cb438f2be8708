// Tests of the visible-suite runner: the repository's own `node --test test/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runVisible } from '../visible.mjs';
import { repoWithLock, testNamed } from './helpers.mjs';

const run = (variant, outputLimitBytes = 1 << 20) => runVisible({ repoDir: repoWithLock(variant), outputLimitBytes });

test('the reproduction fails on check-then-set, with the message and the output', async () => {
  const results = await run('check-then-set');
  assert.equal(results.status, 'fail');
  const failed = testNamed(results, 'two workers send one notification');
  assert.equal(failed.status, 'fail');
  assert.match(failed.message, /2 !== 1|Expected values to be strictly equal/);
  assert.match(failed.output, /sending job-7/);
  assert.equal(testNamed(results, 'a lone worker sends').status, 'pass');
});

test('the reproduction passes on an atomic claim', async () => {
  const results = await run('atomic');
  assert.equal(results.status, 'pass', JSON.stringify(results));
  assert.equal(results.tests.length, 2);
});

test('a syntax error in the code under test is an error with the message', async () => {
  const results = await run('syntax-error');
  assert.equal(results.status, 'error', JSON.stringify(results));
  assert.match(results.message, /SyntaxError/);
});

test('printing past the limit stops the run with output-limit', async () => {
  const results = await run('flood');
  assert.equal(results.verdict, 'output-limit');
});
