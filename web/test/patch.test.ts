import assert from 'node:assert/strict';
import { test } from 'node:test';
import { originalOf, parsePatch } from '../src/lib/patch';

const original = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
const current = 'a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n';
const patch = [
  'diff --git a/src/x.js b/src/x.js',
  'index 1111111..2222222 100644',
  '--- a/src/x.js',
  '+++ b/src/x.js',
  '@@ -1,6 +1,6 @@',
  ' a',
  ' b',
  '-c',
  '+C',
  ' d',
  ' e',
  ' f',
  '@@ -8,3 +8,4 @@',
  ' h',
  ' i',
  ' j',
  '+k',
  'diff --git a/README.md b/README.md',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1 +1 @@',
  '-old',
  '\\ No newline at end of file',
  '+new',
  '',
].join('\n');

test('parsePatch finds every file and hunk', () => {
  const files = parsePatch(patch);
  assert.deepEqual(files.map((f) => f.path), ['src/x.js', 'README.md']);
  assert.equal(files[0].hunks.length, 2);
  assert.equal(files[1].hunks[0].lines[0].newline, false);
});

test('originalOf reverses every hunk', () => {
  assert.equal(originalOf(patch, 'src/x.js', current), original);
});

test('originalOf keeps a missing final newline', () => {
  assert.equal(originalOf(patch, 'README.md', 'new\n'), 'old');
});

test('a file the patch does not name is unchanged', () => {
  assert.equal(originalOf(patch, 'other.js', 'same'), 'same');
  assert.equal(originalOf('', 'src/x.js', current), current);
});

test('a pure insertion at the top reverses', () => {
  const p = 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n';
  assert.equal(originalOf(p, 'f', 'x\ny\n'), '');
});
