// The failing interleaving as a table ("Trace as text"): every step with its
// time, worker, operation, key and full result. It is the same trace as the
// timeline, for reading, copying and screen readers.
import { h } from '../lib/dom';
import type { ModelStep, TraceModel } from './trace-model';

/** What the table says of a call's wait: "in flight since 0 ms, after step 4". */
export function waitNote(st: ModelStep, model: TraceModel): string {
  if (!st.wait) return '';
  const after = model.steps[st.wait.after].step;
  if (st.wait.kind === 'timer') return `timer set after step ${after}`;
  const since = st.wait.since !== undefined ? ` since ${st.wait.since} ms` : '';
  return st.wait.after + 1 < st.index ? `in flight${since}, issued after step ${after}` : '';
}

/** The table of a model, in a collapsible section; rows carry data-step. */
export function traceTable(model: TraceModel, testName: string): HTMLDetailsElement {
  const rows = model.steps.map((st) => {
    const note = waitNote(st, model);
    return h('tr', { class: st.highlight ? 'breaks' : null, 'data-step': st.step },
      h('td', { class: 'num' }, String(st.step)), h('td', { class: 'num' }, `${st.at} ms`), h('td', null, st.worker),
      h('td', null, st.operation), h('td', null, st.key),
      h('td', { class: 'result' }, st.outcome,
        note ? h('span', { class: 'wait-note' }, ` (${note})`) : null,
        st.highlight ? h('strong', { class: 'breaks-note' }, ' breaks the property') : null));
  });
  const table = h('table', null,
    h('thead', null, h('tr', null, ['Step', 'At', 'Worker', 'Operation', 'Key', 'Result'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, rows));
  const details = h('details', { class: 'trace-text', open: true },
    h('summary', null, 'Trace as text'),
    h('div', { class: 'trace-scroll', tabindex: 0, role: 'region', 'aria-label': `Trace of ${testName} as text` }, table));
  return details;
}
