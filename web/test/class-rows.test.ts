import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrange, type ClassView } from '../src/lib/class-rows';
import type { ClassRow } from '../src/lib/instructor-types';

const row = (name: string, over: Partial<ClassRow>): ClassRow => ({
  learner_id: `l_${name}`, display_name: name, dossier: 'job-lock', dossier_title: 'Job lock', step: 0, step_title: 'Not started',
  elapsed_seconds: 0, hints_revealed: 0, checks: 0, submissions: 0, ...over,
});
const rows = [
  row('Ada', { step: 4, elapsed_seconds: 600, solved_at: '2026-01-01T10:00:00Z', submissions: 2 }),
  row('bob', { step: 1, elapsed_seconds: 900, last_failing_property: 'exactly one notification', submissions: 5, running: 'submit' }),
  row('Cy', { step: 0 }),
];
const names = (v: Partial<ClassView>) =>
  arrange(rows, { text: '', status: 'all', column: 'learner', descending: false, ...v }).map((r) => r.display_name);

test('sorts by a column either way, names without regard to case', () => {
  assert.deepEqual(names({}), ['Ada', 'bob', 'Cy']);
  assert.deepEqual(names({ column: 'time', descending: true }), ['bob', 'Ada', 'Cy']);
  assert.deepEqual(names({ column: 'submissions' }), ['Cy', 'Ada', 'bob']);
  assert.deepEqual(names({ column: 'solved' }), ['Ada', 'bob', 'Cy'], 'the unsolved come last, in their order');
});

test('filters by status and by text in name, dossier or failing property', () => {
  assert.deepEqual(names({ status: 'solved' }), ['Ada']);
  assert.deepEqual(names({ status: 'stuck' }), ['bob', 'Cy']);
  assert.deepEqual(names({ status: 'running' }), ['bob']);
  assert.deepEqual(names({ text: 'NOTIFICATION' }), ['bob']);
  assert.deepEqual(names({ text: ' cy ' }), ['Cy']);
  assert.deepEqual(names({ text: 'job lock' }), ['Ada', 'bob', 'Cy']);
});
