import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutGraph } from '../src/desk/graph-layout';

const nodes = [
  { id: 'queue', label: 'Queue delivery', kind: 'queue' },
  { id: 'worker', label: 'Worker process', kind: 'service' },
  { id: 'lock', label: 'Job lock', kind: 'store' },
  { id: 'notify', label: 'Notification service', kind: 'service' },
  { id: 'idem', label: 'Idempotency store', kind: 'store' },
  { id: 'vis', label: 'Visibility config', kind: 'config' },
];
const edges = [
  { from: 'queue', to: 'worker', label: 'at-least-once delivery' },
  { from: 'worker', to: 'lock', label: 'claim' },
  { from: 'worker', to: 'notify', label: 'side effect' },
  { from: 'notify', to: 'idem', label: 'dedupe key' },
  { from: 'queue', to: 'vis', label: 'retry window' },
];

test('graph rows follow the longest path from the source', () => {
  const g = layoutGraph(nodes, edges);
  const row = Object.fromEntries(g.nodes.map((n) => [n.id, n.row]));
  assert.deepEqual(row, { queue: 0, worker: 1, vis: 1, lock: 2, notify: 2, idem: 3 });
  assert.equal(g.edges.length, 5);
});

test('graph layout is deterministic and nodes do not overlap', () => {
  const a = layoutGraph(nodes, edges);
  assert.deepEqual(layoutGraph(nodes, edges), a);
  for (const n of a.nodes) {
    for (const m of a.nodes) {
      if (n === m || n.row !== m.row) continue;
      assert.ok(Math.abs(n.x - m.x) >= (n.w + m.w) / 2, `${n.id} overlaps ${m.id}`);
    }
    assert.ok(n.x - n.w / 2 >= 0 && n.x + n.w / 2 <= a.width, `${n.id} inside the canvas`);
  }
});

test('a cycle does not loop the layout', () => {
  const g = layoutGraph([{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a', label: 'retry' }]);
  assert.deepEqual(g.nodes.map((n) => n.row), [0, 1]);
  assert.ok(g.width >= g.edges[1].lx + g.edges[1].lw / 2);
});

test('edge labels do not overlap', () => {
  const g = layoutGraph(nodes, edges);
  for (const a of g.edges) {
    for (const b of g.edges) {
      if (a === b) continue;
      const apart = Math.abs(a.lx - b.lx) >= (a.lw + b.lw) / 2 || Math.abs(a.ly - b.ly) >= 20;
      assert.ok(apart, `labels "${a.label}" and "${b.label}" overlap`);
    }
  }
});
