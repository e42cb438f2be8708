// Geometry of the interleaving timeline: one lane per worker, one column per
// step in the order the steps reached the store, so that overlapping work
// of two workers reads left to right.
import type { TraceStep } from '../lib/types';

export type StepKind = 'store' | 'effect' | 'lifecycle';

export interface PlacedStep extends TraceStep {
  lane: number;
  x: number; // left edge of the box
  y: number; // top edge of the box
  kind: StepKind;
}

export interface TimelineLayout {
  lanes: string[];
  steps: PlacedStep[];
  width: number;
  height: number;
  laneY: (lane: number) => number; // top of a lane
  /** Columns where the virtual clock moves on: [x, at] pairs. */
  ticks: [number, number][];
}

export const LANE_LABEL_W = 92;
export const COL_W = 138;
export const BOX_W = 126;
export const BOX_H = 54;
export const LANE_H = 76;
export const AXIS_H = 26;

const storeOps = new Set([
  'get', 'set', 'delete', 'del', 'setifabsent', 'set-if-absent', 'setnx', 'compareanddelete', 'compare-and-delete',
  'compareandset', 'compare-and-set', 'incr', 'decr', 'expire', 'read', 'write', 'lock', 'unlock', 'acquire', 'release',
  'begin', 'commit', 'rollback', 'select', 'update', 'insert',
]);
const lifecycleOps = new Set(['receive', 'handle', 'ack', 'nack', 'start', 'finish', 'crash', 'recover', 'timer', 'sleep', 'tick', 'deliver', 'return']);

/** Classifies an operation: a store call, a lifecycle event or a side effect. */
export function stepKind(operation: string): StepKind {
  const op = operation.toLowerCase().replace(/[\s_]/g, '');
  if (storeOps.has(op) || storeOps.has(operation.toLowerCase())) return 'store';
  if (lifecycleOps.has(op)) return 'lifecycle';
  return 'effect';
}

/** Lays out a trace: lanes in order of each worker's first step. */
export function layoutTimeline(trace: TraceStep[]): TimelineLayout {
  const steps = [...trace].sort((a, b) => a.step - b.step);
  const lanes: string[] = [];
  for (const st of steps) if (!lanes.includes(st.worker)) lanes.push(st.worker);
  const laneY = (lane: number) => AXIS_H + lane * LANE_H;
  const placed = steps.map((st, i) => {
    const lane = lanes.indexOf(st.worker);
    return { ...st, lane, x: LANE_LABEL_W + i * COL_W + (COL_W - BOX_W) / 2, y: laneY(lane) + (LANE_H - BOX_H) / 2, kind: stepKind(st.operation) };
  });
  const ticks: [number, number][] = [];
  let last: number | null = null;
  placed.forEach((st, i) => {
    if (st.at !== last) ticks.push([LANE_LABEL_W + i * COL_W + COL_W / 2, st.at]);
    last = st.at;
  });
  return {
    lanes, steps: placed, laneY, ticks,
    width: LANE_LABEL_W + Math.max(1, steps.length) * COL_W + 8,
    height: AXIS_H + lanes.length * LANE_H + 4,
  };
}

/** Shortens text to n characters with an ellipsis. */
export function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}
