// The failing interleaving as an SVG swimlane timeline: a lane per worker,
// steps left to right in the order they happened, the steps that break the
// property highlighted; and the same trace as a table for screen readers.
import { h, s } from '../lib/dom';
import type { TraceStep } from '../lib/types';
import { BOX_H, BOX_W, COL_W, LANE_H, LANE_LABEL_W, clip, layoutTimeline } from './timeline-layout';

const laneColours = ['#2563eb', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#db2777'];

/** Renders the timeline of one failed test's trace. */
export function timeline(trace: TraceStep[], testName: string): HTMLElement {
  const t = layoutTimeline(trace);
  const svg = s('svg', {
    class: 'timeline', width: t.width, height: t.height, viewBox: `0 0 ${t.width} ${t.height}`, role: 'img',
    'aria-label': `Interleaving of ${t.lanes.join(' and ')} in ${t.steps.length} steps; highlighted steps break the property`,
  },
  // Lanes.
  t.lanes.map((_, i) => s('g', { class: 'tl-lane' },
    s('rect', { x: 0, y: t.laneY(i), width: t.width, height: LANE_H, class: i % 2 ? 'tl-lane-bg odd' : 'tl-lane-bg' }),
    s('line', { x1: LANE_LABEL_W, x2: t.width, y1: t.laneY(i) + LANE_H / 2, y2: t.laneY(i) + LANE_H / 2, class: 'tl-spine', stroke: laneColours[i % laneColours.length] }))),
  // Highlight bands behind the steps that break the property.
  t.steps.filter((st) => st.highlight).map((st) => s('rect', {
    x: st.x - (COL_W - BOX_W) / 2 + 2, y: 2, width: COL_W - 4, height: t.height - 4, rx: 8, class: 'tl-band',
  })),
  // Axis: step numbers and the virtual clock where it moves.
  t.steps.map((st) => s('text', { x: st.x + BOX_W / 2, y: 16, class: 'tl-axis', 'text-anchor': 'middle' }, `#${st.step}`)),
  t.ticks.length > 1 ? t.ticks.map(([x, at]) => s('text', { x: x + 22, y: 16, class: 'tl-at', 'text-anchor': 'start' }, `${at} ms`)) : null,
  // Steps.
  t.steps.map((st) => s('g', { class: `tl-step ${st.kind}${st.highlight ? ' highlight' : ''}`, transform: `translate(${st.x},${st.y})`, 'data-step': st.step },
    s('title', null, `#${st.step} ${st.worker}: ${st.operation} ${st.key} → ${st.result}${st.at ? ` (at ${st.at} ms)` : ''}`),
    s('rect', { width: BOX_W, height: BOX_H, rx: 7, class: 'tl-box' }),
    s('text', { x: 9, y: 18, class: 'tl-op' }, clip(st.operation, 14)),
    s('text', { x: 9, y: 32, class: 'tl-key' }, clip(st.key, 19)),
    s('text', { x: 9, y: 46, class: 'tl-result' }, clip(`→ ${st.result}`, 21)),
    st.highlight ? s('g', { transform: `translate(${BOX_W - 12},-4)` },
      s('circle', { r: 9, class: 'tl-flag' }), s('text', { y: 4, 'text-anchor': 'middle', class: 'tl-flag-text' }, '!')) : null)));

  const scroller = h('div', { class: 'timeline-scroll', tabindex: 0, 'aria-label': `Timeline of ${testName}` }, svg);
  // Worker names stay in view while the steps scroll under them.
  const labels = h('div', { class: 'tl-lane-labels', 'aria-hidden': 'true', style: `width:${LANE_LABEL_W}px;height:${t.height}px` },
    t.lanes.map((w, i) => h('span', {
      class: 'tl-worker-pill', title: w,
      style: `top:${t.laneY(i) + LANE_H / 2 - 12}px;background:${laneColours[i % laneColours.length]}`,
    }, clip(w, 10))));
  // Once the timeline is shown (it may be rendered in a hidden tab), centre
  // the first step that breaks the property.
  const first = t.steps.find((st) => st.highlight);
  if (first) {
    const ro = new ResizeObserver(() => {
      if (scroller.clientWidth === 0) return;
      ro.disconnect();
      if (t.width > scroller.clientWidth) scroller.scrollLeft = Math.max(0, first.x + BOX_W / 2 - (LANE_LABEL_W + scroller.clientWidth) / 2);
    });
    ro.observe(scroller);
  }
  return h('figure', { class: 'timeline-figure' },
    h('figcaption', null,
      h('span', { class: 'tl-title' }, 'Interleaving'),
      h('span', { class: 'tl-legend' },
        h('span', { class: 'lg store' }, 'store call'), h('span', { class: 'lg effect' }, 'side effect'),
        h('span', { class: 'lg lifecycle' }, 'job event'), h('span', { class: 'lg highlight' }, 'breaks the property'))),
    h('div', { class: 'timeline-wrap' }, scroller, labels),
    h('details', { class: 'trace-text' },
      h('summary', null, 'Trace as text'),
      h('table', null,
        h('thead', null, h('tr', null, ['Step', 'At', 'Worker', 'Operation', 'Key', 'Result'].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, t.steps.map((st) => h('tr', { class: st.highlight ? 'highlight' : '' },
          h('td', null, String(st.step)), h('td', null, `${st.at} ms`), h('td', null, st.worker),
          h('td', null, st.operation), h('td', null, st.key), h('td', null, st.result + (st.highlight ? ' (breaks the property)' : ''))))))));
}
