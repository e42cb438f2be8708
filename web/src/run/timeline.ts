// The failing interleaving as its story: a sentence saying what went wrong,
// then a swimlane timeline (a lane per worker, every remote call a bar from
// when it left the worker to when it reached the store, the steps that break
// the property marked, a frozen worker's lane shaded, a lease running out
// marked), and the same trace as text. Steps are buttons: the arrow keys
// walk through them, and focusing or hovering one shows it in full below
// the picture (with a link to the line of code that made the call), marks
// its row in the text trace and highlights that line in the editor.
import { h, replace, srOnly } from '../lib/dom';
import type { TraceStep } from '../lib/types';
import { parseSite, siteButton, type SourceLinks } from './source-site';
import { layoutTimeline, type Orientation } from './timeline-layout';
import { laneColours, timelineSVG } from './timeline-svg';
import { traceModel, type ModelStep, type TraceModel } from './trace-model';
import { storyOf } from './trace-story';
import { callName, traceTable, waitNote, wholeValue } from './trace-table';

/** Below this width the timeline runs top to bottom. */
const narrow = '(max-width: 640px)';

/** The full description of a step, as the detail line and the card's name say it. */
function describe(st: ModelStep, model: TraceModel): string {
  const note = waitNote(st, model);
  return `Step ${st.step} at ${st.at} ms: ${st.worker}${st.request ? ` (request ${st.request})` : ''} ${callName(st)}`
    + `${st.key ? ` ${st.key}` : ''} → ${st.outcome}${note ? ` (${note})` : ''}${st.highlight ? '. Breaks the property.' : ''}`;
}

function card(st: ModelStep, model: TraceModel, box: { x: number; y: number; w: number; h: number }, storyStep: boolean): HTMLElement {
  const note = waitNote(st, model);
  return h('li', { class: 'tl-item', style: `left:${box.x}px;top:${box.y}px;width:${box.w}px;height:${box.h}px` },
    h('button', {
      type: 'button', class: `tl-card ${st.kind}${st.highlight ? ' breaks' : ''}${storyStep ? ' story' : ''}`,
      'data-step': st.step, tabindex: -1, style: `--lane:${laneColours[st.lane % laneColours.length]}`,
    },
    srOnly(`Step ${st.step} at ${st.at} ms, ${st.worker}${st.request ? ` (request ${st.request})` : ''}${st.service ? `, ${st.service}` : ''}: `),
    h('span', { class: 'tl-card-head' },
      h('span', { class: 'tl-card-op' }, st.operation),
      st.highlight ? h('span', { class: 'tl-card-flag' }, h('span', { 'aria-hidden': 'true' }, '✗ '), 'breaks', srOnly(' the property')) : null),
    st.key || (model.manyRequests && st.request) ? h('span', { class: 'tl-card-key' },
      h('span', { class: 'tl-card-key-name' }, st.key),
      model.manyRequests && st.request ? h('span', { class: 'tl-card-req', 'aria-hidden': 'true' }, st.request) : null) : null,
    h('span', { class: 'tl-card-result' }, `→ ${st.outcome}`),
    note ? srOnly(` (${note})`) : null));
}

/** Renders the timeline of one failed test's trace. */
export function timeline(trace: TraceStep[], testName: string, links: SourceLinks): HTMLElement {
  const model = traceModel(trace);
  const story = storyOf(model);
  const table = traceTable(model, testName, links);
  const detail = h('div', { class: 'tl-detail' });
  const stage = h('div', { class: 'tl-stage' });
  let selected = 0;
  let cards: HTMLButtonElement[] = [];

  const show = (i: number, focus: boolean) => {
    selected = Math.max(0, Math.min(model.steps.length - 1, i));
    const st = model.steps[selected];
    cards.forEach((c, k) => {
      c.tabIndex = k === selected ? 0 : -1;
      c.classList.toggle('current', k === selected);
    });
    for (const band of stage.querySelectorAll('.tl-band')) band.classList.toggle('current', band.getAttribute('data-band') === String(st.step));
    for (const row of table.querySelectorAll('tr[data-step]')) row.classList.toggle('current', row.getAttribute('data-step') === String(st.step));
    const site = parseSite(st.site);
    replace(detail, h('p', { class: 'tl-detail-text' }, describe(st, model)),
      site ? h('p', { class: 'tl-detail-site' }, 'Called from ', siteButton(site, links)) : null,
      wholeValue(st));
    if (focus) {
      cards[selected].focus({ preventScroll: true });
      cards[selected].scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  };

  // Pointing at a step (or a row of the text trace) highlights its line in the editor.
  const point = (i: number) => links.mark(parseSite(model.steps[i]?.site));
  const draw = (orientation: Orientation) => {
    const t = layoutTimeline(model, orientation);
    const lanes = h('div', { class: 'tl-lanes', 'aria-hidden': 'true' }, model.lanes.map((w, i) => h('span', {
      class: 'tl-worker', title: w, style: orientation === 'across'
        ? `top:${t.lanes[i].y}px;height:${t.lanes[i].h}px;--lane:${laneColours[i % laneColours.length]}`
        : `left:${t.lanes[i].x}px;width:${t.lanes[i].w}px;--lane:${laneColours[i % laneColours.length]}`,
    }, h('span', null, w))));
    const list = h('ol', { class: 'tl-steps', 'aria-label': `Steps of ${testName}, in the order they happened; arrow keys move between them`, style: `width:${t.width}px;height:${t.height}px` },
      model.steps.map((st, i) => card(st, model, t.cards[i], story.overlap?.during === st)));
    cards = [...list.querySelectorAll<HTMLButtonElement>('.tl-card')];
    cards.forEach((c, i) => {
      c.addEventListener('focus', () => { show(i, false); point(i); });
      c.addEventListener('mouseenter', () => { show(i, false); point(i); });
    });
    const canvas = h('div', { class: 'tl-canvas', style: `width:${t.width}px;height:${t.height}px` }, timelineSVG(model, t, story.overlap?.call), list);
    const scroller = h('div', { class: 'tl-scroll' }, canvas);
    stage.className = `tl-stage ${orientation}`;
    replace(stage, orientation === 'across' ? [h('div', { class: 'tl-lanes-col', style: `height:${t.height}px` }, lanes), scroller] : [lanes, scroller]);
    show(selected, false);
  };

  stage.addEventListener('keydown', (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
    const by = moves[e.key];
    if (by === undefined || !(e.target as Element).closest('.tl-card')) return;
    e.preventDefault();
    show(Number.isFinite(by) ? selected + by : by < 0 ? 0 : model.steps.length - 1, true);
  });

  const pointRow = (e: Event) => {
    const row = (e.target as Element).closest('tr[data-step]');
    if (row) point(model.steps.findIndex((st) => String(st.step) === row.getAttribute('data-step')));
  };
  table.addEventListener('focusin', pointRow);
  table.addEventListener('mouseover', pointRow);

  const mq = window.matchMedia(narrow);
  const orientation = (): Orientation => (mq.matches ? 'down' : 'across');
  const figure = h('figure', { class: 'timeline-figure', 'data-test': testName },
    h('figcaption', null,
      h('span', { class: 'tl-title' }, 'Interleaving'),
      h('span', { class: 'tl-legend' },
        h('span', { class: 'lg store' }, 'store call'), h('span', { class: 'lg effect' }, 'side effect'),
        h('span', { class: 'lg lifecycle' }, 'job event'), h('span', { class: 'lg bar' }, 'call in flight'),
        model.frozen.length ? h('span', { class: 'lg frozen' }, 'worker frozen') : null,
        model.steps.some((st) => st.kind === 'expiry') ? h('span', { class: 'lg expiry' }, 'lease ran out') : null,
        h('span', { class: 'lg breaks' }, '✗ breaks the property'))),
    h('p', { class: 'tl-story' }, story.sentence),
    stage, detail, table);
  // A figure replaced by a newer run's results stops following the screen.
  const redraw = () => {
    if (figure.isConnected) draw(orientation());
    else mq.removeEventListener('change', redraw);
  };
  mq.addEventListener('change', redraw);
  draw(orientation());
  return figure;
}
