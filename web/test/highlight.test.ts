import assert from 'node:assert/strict';
import { test } from 'node:test';
import { highlightParts } from '../src/lib/highlight';

test('marks whole matched words only', () => {
  const parts = highlightParts('SQS visibility timeout ran out mid-batch; visible again', ['visibility', 'batch']);
  assert.deepEqual(parts, [
    { text: 'SQS ', mark: false },
    { text: 'visibility', mark: true },
    { text: ' timeout ran out mid-', mark: false },
    { text: 'batch', mark: true },
    { text: '; visible again', mark: false },
  ]);
});

test('a single letter joined by a hyphen is one word, as on the server', () => {
  const parts = highlightParts('the same e-mail twice', ['e-mail', 'twice']);
  assert.deepEqual(parts.filter((p) => p.mark).map((p) => p.text), ['e-mail', 'twice']);
});

test('no words, one part', () => {
  assert.deepEqual(highlightParts('job-7 sent twice', []), [{ text: 'job-7 sent twice', mark: false }]);
});
