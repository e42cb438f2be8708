// The drawn part of the timeline, behind the step cards: lanes, the clock
// where it moves, bands behind the steps that break the property, frozen
// stretches of a worker's lane, lines where a lease ran out, and the bars of
// calls in flight with what they wait for written on them. The picture
// repeats what the cards and the text trace say, so it is hidden from
// screen readers.
import { s } from '../lib/dom';
import { ACROSS, DOWN, type Bar, type TimelineLayout } from './timeline-layout';
import type { ModelStep, TraceModel } from './trace-model';

/** The colour of each lane, in lane order (worker names are always written too). */
export const laneColours = ['#1d4ed8', '#15803d', '#7e22ce', '#c2410c', '#0e7490', '#be185d'];

/** Average width of a character of a bar label, to decide whether it fits. */
const LABEL_CHAR_W = 5.6;

/** What a wait bar says: "set in flight since 0 ms", "waiting for its timer". */
export function barLabel(st: ModelStep): string {
  if (st.wait?.kind === 'timer') return 'waiting for its timer';
  return `${st.operation} in flight${st.wait?.since !== undefined ? ` since ${st.wait.since} ms` : ''}`;
}

function bar(b: Bar, colour: string, story: boolean, across: boolean): SVGElement {
  const label = barLabel(b.step);
  const fill = s('rect', { x: b.x, y: b.y, width: Math.max(0, b.w), height: Math.max(0, b.h), rx: b.side ? 2 : 5, fill: colour, class: 'tl-bar-fill' });
  if (b.side) return s('g', { class: `tl-bar side ${b.step.wait?.kind ?? 'call'}${story ? ' story' : ''}`, 'data-bar': b.step.step }, fill);
  const room = across ? b.w - 12 : DOWN.lane - 10;
  const fits = label.length * LABEL_CHAR_W <= room && (across ? b.w > 40 : b.h >= 26);
  const lw = label.length * LABEL_CHAR_W + 12;
  // Across, the label sits where the bar starts, so it shows with the first steps it spans.
  const cx = across ? b.x + 6 + lw / 2 : b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  return s('g', { class: `tl-bar ${b.step.wait?.kind ?? 'call'}${story ? ' story' : ''}`, 'data-bar': b.step.step },
    fill,
    fits ? s('g', { class: 'tl-bar-label' },
      s('rect', { x: cx - lw / 2, y: cy - 9, width: lw, height: 18, rx: 9 }),
      s('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }, label)) : null);
}

/** Draws the picture of a laid-out model; `story` is the call whose bar explains the failure. */
export function timelineSVG(model: TraceModel, t: TimelineLayout, story: ModelStep | undefined): SVGElement {
  const across = t.orientation === 'across';
  return s('svg', { class: 'timeline', width: t.width, height: t.height, viewBox: `0 0 ${t.width} ${t.height}`, 'aria-hidden': 'true', focusable: 'false' },
    t.lanes.map((ln, i) => s('rect', { x: ln.x, y: ln.y, width: ln.w, height: ln.h, class: i % 2 ? 'tl-lane-bg odd' : 'tl-lane-bg' })),
    model.steps.map((st, i) => s('rect', {
      x: t.bands[i].x, y: t.bands[i].y, width: t.bands[i].w, height: t.bands[i].h,
      class: `tl-band${st.highlight ? ' breaks' : ''}`, 'data-band': st.step,
    })),
    t.ticks.map((tk) => across
      ? s('g', { class: 'tl-tick' },
        tk.index > 0 ? s('line', { x1: tk.pos, x2: tk.pos, y1: 4, y2: t.height }) : null,
        s('text', { x: tk.pos + 6, y: 12 }, `${tk.at} ms`))
      : s('g', { class: 'tl-tick' },
        tk.index > 0 ? s('line', { x1: 0, x2: t.width, y1: tk.pos, y2: tk.pos }) : null,
        s('text', { x: 4, y: tk.pos + 12 }, `${tk.at} ms`))),
    model.steps.map((st, i) => across
      ? s('text', { x: t.cards[i].x + t.cards[i].w / 2, y: 24, class: 'tl-axis', 'text-anchor': 'middle' }, `#${st.step}`)
      : s('text', { x: 4, y: t.cards[i].y + t.cards[i].h / 2 + 14, class: 'tl-axis' }, `#${st.step}`)),
    t.frozen.map((f, i) => s('g', { class: 'tl-frozen', 'data-frozen': model.steps[model.frozen[i].from].step },
      s('rect', { x: f.x, y: f.y, width: Math.max(0, f.w), height: Math.max(0, f.h), rx: 6 }),
      f.w > 60 && f.h > 20 ? s('text', across ? { x: f.x + 6, y: f.y + 9 } : { x: f.x + 4, y: f.y + 12 }, 'frozen') : null)),
    t.expiries.map((e) => s('line', across
      ? { x1: e.pos, x2: e.pos, y1: ACROSS.axis, y2: t.height, class: 'tl-expiry', 'data-expiry': e.step.step }
      : { x1: DOWN.axis, x2: t.width, y1: e.pos, y2: e.pos, class: 'tl-expiry', 'data-expiry': e.step.step })),
    t.bars.map((b) => bar(b, laneColours[b.step.lane % laneColours.length], b.step === story, across)));
}
