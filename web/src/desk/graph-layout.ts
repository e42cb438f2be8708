// A small deterministic layered layout for the architecture graph: nodes go
// in rows by their longest distance from a source (top to bottom), in the
// dossier's order inside a row, then one pass orders each row by the mean
// position of its parents to untangle edges. Same input, same picture.
import type { ArchEdge, ArchNode } from '../lib/types';

export interface PlacedNode extends ArchNode {
  x: number; // centre
  y: number; // centre
  w: number;
  h: number;
  row: number;
}

export interface PlacedEdge extends ArchEdge {
  path: string; // SVG path data
  lx: number; // label centre
  ly: number;
  lw: number; // label width
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

export const NODE_H = 44;
const ROW_GAP = 80;
const COL_GAP = 28;
const PAD = 12;
const CHAR_W = 7.2; // approximate width of one character at the node font size
const LABEL_CHAR_W = 6.1;

/** Width of a node box for its label. */
export function nodeWidth(label: string): number {
  return Math.max(112, Math.round(label.length * CHAR_W + 36));
}

/** Row of each node: the longest path from a source, ignoring back edges. */
function rows(nodes: ArchNode[], edges: ArchEdge[]): Map<string, number> {
  const ids = new Set(nodes.map((n) => n.id));
  const out = new Map<string, ArchEdge[]>();
  for (const e of edges) {
    if (!ids.has(e.from) || !ids.has(e.to) || e.from === e.to) continue;
    (out.get(e.from) ?? out.set(e.from, []).get(e.from)!).push(e);
  }
  // Drop edges that close a cycle, found by a DFS in dossier order.
  const state = new Map<string, 1 | 2>();
  const forward: ArchEdge[] = [];
  const visit = (id: string) => {
    state.set(id, 1);
    for (const e of out.get(id) ?? []) {
      const st = state.get(e.to);
      if (st === 1) continue; // back edge
      forward.push(e);
      if (st === undefined) visit(e.to);
    }
    state.set(id, 2);
  };
  for (const n of nodes) if (!state.has(n.id)) visit(n.id);
  const row = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  // Longest path by relaxation; the forward edges form a DAG.
  for (let i = 0; i < nodes.length; i++) {
    let moved = false;
    for (const e of forward) {
      const r = row.get(e.from)! + 1;
      if (r > row.get(e.to)!) {
        row.set(e.to, r);
        moved = true;
      }
    }
    if (!moved) break;
  }
  return row;
}

/** Lays the graph out; coordinates are in SVG user units. */
export function layoutGraph(nodes: ArchNode[], edges: ArchEdge[]): GraphLayout {
  const row = rows(nodes, edges);
  const byRow: ArchNode[][] = [];
  for (const n of nodes) (byRow[row.get(n.id)!] ??= []).push(n);
  const order = new Map<string, number>();
  byRow.forEach((r, i) => r.forEach((n, j) => order.set(n.id, i * 1000 + j)));
  // One barycentre pass: order a row by the mean position of its parents.
  for (let i = 1; i < byRow.length; i++) {
    const rank = (n: ArchNode) => {
      const ps = edges.filter((e) => e.to === n.id && row.get(e.from)! < i).map((e) => order.get(e.from)!);
      return ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : order.get(n.id)!;
    };
    const ranked = byRow[i].map((n, j) => ({ n, r: rank(n), j }));
    ranked.sort((a, b) => a.r - b.r || a.j - b.j);
    byRow[i] = ranked.map((x) => x.n);
    byRow[i].forEach((n, j) => order.set(n.id, i * 1000 + j));
  }
  const rowWidths = byRow.map((r) => r.reduce((a, n) => a + nodeWidth(n.label), 0) + COL_GAP * (r.length - 1));
  const width = Math.max(0, ...rowWidths) + 2 * PAD;
  const placed = new Map<string, PlacedNode>();
  byRow.forEach((r, i) => {
    let x = (width - rowWidths[i]) / 2;
    for (const n of r) {
      const w = nodeWidth(n.label);
      placed.set(n.id, { ...n, x: x + w / 2, y: PAD + NODE_H / 2 + i * (NODE_H + ROW_GAP), w, h: NODE_H, row: i });
      x += w + COL_GAP;
    }
  });
  const height = byRow.length * NODE_H + (byRow.length - 1) * ROW_GAP + 2 * PAD;
  const placedEdges = placeLabels(edges
    .filter((e) => placed.has(e.from) && placed.has(e.to) && e.from !== e.to)
    .map((e) => route(e, placed.get(e.from)!, placed.get(e.to)!)));
  // Arcs of back edges may reach past the widest row.
  const reach = Math.max(width, ...placedEdges.map((e) => Math.ceil(e.lx + e.lw / 2 + PAD)));
  return { width: reach, height, nodes: nodes.filter((n) => placed.has(n.id)).map((n) => placed.get(n.id)!), edges: placedEdges };
}

type Point = [number, number];

/** A routed edge: its curve's four control points. */
interface Curve {
  edge: ArchEdge;
  c: [Point, Point, Point, Point];
  lw: number;
}

/** The point at t on a cubic Bézier curve. */
function bezier([p0, p1, p2, p3]: Curve['c'], t: number): Point {
  const u = 1 - t;
  const f = (i: 0 | 1) => u * u * u * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t * t * t * p3[i];
  return [f(0), f(1)];
}

/** Routes one edge as a curve: down to a lower row, across a row, or back up. */
function route(e: ArchEdge, a: PlacedNode, b: PlacedNode): Curve {
  const lw = e.label ? Math.round(e.label.length * LABEL_CHAR_W + 14) : 0;
  if (b.row > a.row) {
    const x1 = a.x, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y - b.h / 2 - 3;
    const my = (y1 + y2) / 2;
    return { edge: e, lw, c: [[x1, y1], [x1, my], [x2, my], [x2, y2]] };
  }
  if (b.row === a.row) {
    const dir = b.x > a.x ? 1 : -1;
    const x1 = a.x + (dir * a.w) / 2, x2 = b.x - (dir * b.w) / 2 - dir * 3, y = a.y;
    return { edge: e, lw, c: [[x1, y], [(2 * x1 + x2) / 3, y], [(x1 + 2 * x2) / 3, y], [x2, y]] };
  }
  // An edge back up (a cycle): leave from the side and arc outward.
  const x1 = a.x + a.w / 2, y1 = a.y, x2 = b.x + b.w / 2 + 3, y2 = b.y;
  const bulge = Math.max(x1, x2) + 40;
  return { edge: e, lw, c: [[x1, y1], [bulge, y1], [bulge, y2], [x2, y2]] };
}

/** Where along its curve a label may sit when its first choice is taken. */
const labelSpots = [0.5, 0.3, 0.7, 0.2, 0.8];

/**
 * The first-choice spot of each label: labelled edges leaving one node are
 * staggered along their curves (0.3 and 0.7 for two), so that fanned-out
 * labels do not sit side by side; a lone edge has its label in the middle.
 */
function preferredSpots(curves: Curve[]): number[] {
  const siblings = new Map<string, number[]>();
  curves.forEach((cv, i) => {
    if (cv.lw > 0) (siblings.get(cv.edge.from) ?? siblings.set(cv.edge.from, []).get(cv.edge.from)!).push(i);
  });
  const spots = curves.map(() => 0.5);
  for (const idx of siblings.values()) {
    const byX = [...idx].sort((a, b) => curves[a].c[3][0] - curves[b].c[3][0]);
    byX.forEach((i, k) => { spots[i] = (k + 1) / (byX.length + 1) * 0.8 + 0.1; });
  }
  return spots;
}

/**
 * Places each label on its curve at its first-choice spot when that is free,
 * otherwise at the first spot that overlaps no label placed before it.
 */
function placeLabels(curves: Curve[]): PlacedEdge[] {
  const boxes: { x: number; y: number; w: number }[] = [];
  const overlaps = (x: number, y: number, w: number) =>
    boxes.some((b) => Math.abs(b.x - x) < (b.w + w) / 2 + 4 && Math.abs(b.y - y) < 22);
  const preferred = preferredSpots(curves);
  return curves.map(({ edge, c, lw }, i) => {
    const [[x1, y1], [cx1, cy1], [cx2, cy2], [x2, y2]] = c;
    const path = `M${x1},${y1} C${cx1},${cy1} ${cx2},${cy2} ${x2},${y2}`;
    let [lx, ly] = bezier(c, preferred[i]);
    if (lw > 0) {
      for (const t of [preferred[i], ...labelSpots]) {
        const [x, y] = bezier(c, t);
        if (!overlaps(x, y, lw)) {
          [lx, ly] = [x, y];
          break;
        }
      }
      boxes.push({ x: lx, y: ly, w: lw });
    }
    return { ...edge, path, lx: Math.round(lx), ly: Math.round(ly), lw };
  });
}
