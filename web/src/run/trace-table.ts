// The failing interleaving as a table ("Trace as text"): every step with its
// time, worker, request, the call it made, key and result, and the line of
// the learner's code that made it. It is the same trace as the timeline, for
// reading, copying and screen readers. A value the compact result cuts short
// opens in full in its cell.
import { h } from '../lib/dom';
import { parseSite, siteButton, type SourceLinks } from './source-site';
import type { ModelStep, TraceModel } from './trace-model';

/** What the table says of a call's wait: "in flight since 0 ms, issued after step 4". */
export function waitNote(st: ModelStep, model: TraceModel): string {
  if (!st.wait) return '';
  if (st.wait.kind === 'timer') return `timer set after step ${model.steps[st.wait.after].step}`;
  const since = st.wait.since !== undefined ? ` since ${st.wait.since} ms` : '';
  return st.wait.from < st.index ? `in flight${since}, issued after step ${model.steps[st.wait.from - 1].step}` : '';
}

/** The call a step made, with the remote it went to: "provider.send", "store.get". */
export function callName(st: ModelStep): string {
  return st.service ? `${st.service}.${st.operation}` : st.operation;
}

/** The whole value of a step whose result was cut short, behind a disclosure. */
export function wholeValue(st: ModelStep): HTMLDetailsElement | null {
  if (!st.detail) return null;
  return h('details', { class: 'whole-value' }, h('summary', null, 'Whole value'), h('pre', null, st.detail));
}

/** The table of a model, in a collapsible section; rows carry data-step. */
export function traceTable(model: TraceModel, testName: string, links: SourceLinks): HTMLDetailsElement {
  const requests = model.steps.some((st) => st.request);
  const sites = model.steps.some((st) => st.site);
  const rows = model.steps.map((st) => {
    const note = waitNote(st, model);
    const site = parseSite(st.site);
    return h('tr', { class: st.highlight ? 'breaks' : null, 'data-step': st.step },
      h('td', { class: 'num' }, String(st.step)), h('td', { class: 'num' }, `${st.at} ms`), h('td', null, st.worker),
      requests ? h('td', null, st.request ?? '') : null,
      h('td', null, callName(st)), h('td', null, st.key),
      h('td', { class: 'result' }, st.outcome,
        note ? h('span', { class: 'wait-note' }, ` (${note})`) : null,
        st.highlight ? h('strong', { class: 'breaks-note' }, ' breaks the property') : null,
        wholeValue(st)),
      sites ? h('td', null, site ? siteButton(site, links) : null) : null);
  });
  const head = ['Step', 'At', 'Worker', requests ? 'Request' : null, 'Call', 'Key', 'Result', sites ? 'Called from' : null];
  const table = h('table', null,
    h('thead', null, h('tr', null, head.map((c) => (c ? h('th', { scope: 'col' }, c) : null)))),
    h('tbody', null, rows));
  return h('details', { class: 'trace-text', open: true },
    h('summary', null, 'Trace as text'),
    h('div', { class: 'trace-scroll', tabindex: 0, role: 'region', 'aria-label': `Trace of ${testName} as text` }, table));
}
