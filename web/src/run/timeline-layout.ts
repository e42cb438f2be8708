// Geometry of the interleaving timeline, in two orientations: "across" (a
// lane per worker, steps left to right: wide screens) and "down" (a column
// per worker, steps top to bottom: phones). Each step gets a card in its
// worker's lane; each wait (a call in flight, a timer) gets a bar in the
// same lane from when it left (the previous card of its request, or the
// step at which the clock reached the time it was issued) to the card of the
// step it waited for. Bars of two lanes side by side are calls in flight
// together. A frozen worker's lane is shaded from its pause to its wake, and
// a lease running out is a line across every lane.
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
  /** Drawn thin along the lane's edge, because it passes other cards of its lane. */
  side: boolean;
}

/** A lease running out, drawn as a line across every lane at `pos` along the steps' axis. */
export interface ExpiryMark {
  step: ModelStep;
  pos: number;
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
  /** Each frozen stretch of the model, in its order: a box in the worker's lane. */
  frozen: Box[];
  expiries: ExpiryMark[];
  ticks: Tick[];
}

/** Sizes of the "across" orientation. */
export const ACROSS = { col: 178, card: 166, cardH: 80, lane: 104, axis: 28 } as const;
/** Sizes of the "down" orientation. */
export const DOWN = { row: 78, cardH: 70, lane: 156, card: 142, axis: 40 } as const;
/** Thickness of a wait bar. */
export const BAR = 10;
/** Thickness of a wait bar drawn along its lane's edge. */
export const SIDE_BAR = 5;

/** Lays a model out in an orientation. */
export function layoutTimeline(model: TraceModel, orientation: Orientation): TimelineLayout {
  const n = Math.max(1, model.steps.length);
  const lanes = model.lanes.length || 1;
  const across = orientation === 'across';
  const size = across
    ? { step: ACROSS.col, card: ACROSS.card, lane: ACROSS.lane, cardLane: ACROSS.cardH, axis: ACROSS.axis }
    : { step: DOWN.row, card: DOWN.cardH, lane: DOWN.lane, cardLane: DOWN.card, axis: DOWN.axis };
  // Every box is placed along the steps' axis and across the lanes' axis,
  // then turned into x and y for the orientation.
  const place = (along: number, length: number, side: number, breadth: number): Box => across
    ? { x: along, y: side, w: length, h: breadth }
    : { x: side, y: along, w: breadth, h: length };
  const laneStart = (lane: number) => size.axis + lane * size.lane;
  const cardStart = (i: number) => i * size.step + (size.step - size.card) / 2;
  const cardEnd = (i: number) => cardStart(i) + size.card;
  const margin = (size.lane - size.cardLane) / 2;
  const cards = model.steps.map((st) => place(cardStart(st.index), size.card, laneStart(st.lane) + margin, size.cardLane));
  const length = n * size.step;
  const breadth = size.axis + lanes * size.lane;
  const laneBoxes = model.lanes.map((_, i) => place(0, length, laneStart(i), size.lane));
  const bands = model.steps.map((st) => place(st.index * size.step, size.step, 0, breadth));
  const bars: Bar[] = [];
  for (const st of model.steps) {
    if (!st.wait) continue;
    const { after, from } = st.wait;
    const begin = from === after + 1 ? cardEnd(after) : from * size.step;
    // A bar that would pass behind another card of its lane (a second
    // request, a pause) runs along the lane's edge instead.
    const side = model.steps.some((o) => o.lane === st.lane && o.index >= from && o.index < st.index);
    const thick = side ? SIDE_BAR : BAR;
    const at = side ? laneStart(st.lane) + size.lane - (margin + thick) / 2 : laneStart(st.lane) + size.lane / 2 - BAR / 2;
    bars.push({ ...place(begin, cardStart(st.index) - begin, at, thick), step: st, side });
  }
  const frozen = model.frozen.map((f): Box => {
    const begin = cardEnd(f.from);
    return place(begin, (f.to === undefined ? length : cardStart(f.to)) - begin, laneStart(f.lane) + 2, size.lane - 4);
  });
  const expiries = model.steps.filter((st) => st.kind === 'expiry').map((st) => ({ step: st, pos: st.index * size.step + size.step / 2 }));
  const ticks: Tick[] = [];
  model.steps.forEach((st, i) => {
    if (i === 0 || st.at !== model.steps[i - 1].at) ticks.push({ index: i, pos: i * size.step, at: st.at });
  });
  const [width, height] = across ? [length, breadth] : [breadth, length];
  return { orientation, width, height, lanes: laneBoxes, cards, bands, bars, frozen, expiries, ticks };
}
