import { test } from 'node:test';
import assert from 'node:assert/strict';

import { mergeSegments } from '../src/compaction/merge.js';

test('a rollup sums every meter over every segment, in any order', () => {
  const rollup = mergeSegments({
    tenant: 'tnt_1',
    period: '2026-10',
    segments: [
      { id: 'seg-0002', hour: '2026-10-01T01:00Z', calls: { 'api.requests': 5, 'api.egress_mb': 2 } },
      { id: 'seg-0001', hour: '2026-10-01T00:00Z', calls: { 'api.requests': 7 } },
    ],
    compactedBy: 'compactor-a',
    compactedAt: Date.parse('2026-11-01T00:10:00Z'),
  });
  assert.deepEqual(rollup.totals, { 'api.requests': 12, 'api.egress_mb': 2 });
  assert.equal(rollup.segments, 2);
  assert.equal(rollup.lastSegment, 'seg-0002');
  assert.equal(rollup.compactedAt, '2026-11-01T00:10:00.000Z');
});

test('a period without segments yet has an empty rollup', () => {
  const rollup = mergeSegments({ tenant: 'tnt_1', period: '2026-11', segments: [], compactedBy: 'compactor-b', compactedAt: 0 });
  assert.deepEqual(rollup.totals, {});
  assert.equal(rollup.lastSegment, null);
});
