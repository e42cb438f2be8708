// Geometry of the interleaving timeline, in two orientations: "across" (a
// lane per worker, steps left to right: wide screens) and "down" (a column
// per worker, steps top to bottom: phones). Each step gets a card in its
// worker's lane; each wait (a call in flight, a timer) gets a bar in the
// same lane from the worker's previous card to the card of the step it
// waited for. A worker has no other card in between, so bars never cross
// cards, and bars of two lanes side by side are calls in flight together.
import type { ModelStep, TraceModel } from './trace-model';

/** How the steps run: left to right, or top to bottom. */
export type Orientation = 'across' | 'down';

/** A rectangle in the diagram's pixel space. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A wait drawn as a bar, ending at the card of `step`. */
export interface Bar extends Box {
  step: ModelStep;
}

/** Where the virtual clock moves on: the boundary before the step at `index`, and its time. */
export interface Tick {
  index: number;
  /** Position along the steps' axis (x across, y down). */
  pos: number;
  at: number;
}

/** The placed diagram. */
export interface TimelineLayout {
  orientation: Orientation;
  width: number;
  height: number;
  /** Each lane's box, in lane order. */
  lanes: Box[];
  /** Each step's card, in step order. */
  cards: Box[];
  /** Each step's band across every lane (its column or row). */
  bands: Box[];
  bars: Bar[];
  ticks: Tick[];
}

/** Sizes of the "across" orientation. */
export const ACROSS = { col: 178, card: 166, cardH: 80, lane: 104, axis: 28 } as const;
/** Sizes of the "down" orientation. */
export const DOWN = { row: 78, cardH: 70, lane: 152, card: 142, axis: 40 } as const;
/** Thickness of a wait bar. */
export const BAR = 10;

/** Lays a model out in an orientation. */
export function layoutTimeline(model: TraceModel, orientation: Orientation): TimelineLayout {
  const n = Math.max(1, model.steps.length);
  const lanes = model.lanes.length || 1;
  const across = orientation === 'across';
  const card = (st: ModelStep): Box => across
    ? { x: st.index * ACROSS.col + (ACROSS.col - ACROSS.card) / 2, y: ACROSS.axis + st.lane * ACROSS.lane + (ACROSS.lane - ACROSS.cardH) / 2, w: ACROSS.card, h: ACROSS.cardH }
    : { x: DOWN.axis + st.lane * DOWN.lane + (DOWN.lane - DOWN.card) / 2, y: st.index * DOWN.row + (DOWN.row - DOWN.cardH) / 2, w: DOWN.card, h: DOWN.cardH };
  const cards = model.steps.map(card);
  const width = across ? n * ACROSS.col : DOWN.axis + lanes * DOWN.lane;
  const height = across ? ACROSS.axis + lanes * ACROSS.lane : n * DOWN.row;
  const laneBoxes = model.lanes.map((_, i): Box => across
    ? { x: 0, y: ACROSS.axis + i * ACROSS.lane, w: width, h: ACROSS.lane }
    : { x: DOWN.axis + i * DOWN.lane, y: 0, w: DOWN.lane, h: height });
  const bands = model.steps.map((st): Box => across
    ? { x: st.index * ACROSS.col, y: 0, w: ACROSS.col, h: height }
    : { x: 0, y: st.index * DOWN.row, w: width, h: DOWN.row });
  const bars: Bar[] = [];
  for (const st of model.steps) {
    if (!st.wait) continue;
    const from = cards[st.wait.after];
    const to = cards[st.index];
    bars.push(across
      ? { step: st, x: from.x + from.w, y: to.y + to.h / 2 - BAR / 2, w: to.x - from.x - from.w, h: BAR }
      : { step: st, x: to.x + to.w / 2 - BAR / 2, y: from.y + from.h, w: BAR, h: to.y - from.y - from.h });
  }
  const ticks: Tick[] = [];
  model.steps.forEach((st, i) => {
    if (i === 0 || st.at !== model.steps[i - 1].at) ticks.push({ index: i, pos: across ? i * ACROSS.col : i * DOWN.row, at: st.at });
  });
  return { orientation, width, height, lanes: laneBoxes, cards, bands, bars, ticks };
}
