// The top of the dossier: "Incident Dossier", the title and summary, the
// initial failing signal with expected and actual behaviour, and the
// incident narrative panels of the evidence desk.
import { h, panel } from '../lib/dom';
import { kindLabel } from '../lib/format';
import type { Dossier } from '../lib/types';

/** The dossier heading with the initial failing signal. */
export function incidentHeader(d: Dossier): HTMLElement {
  return h('section', { class: 'dossier-head', 'aria-labelledby': 'dossier-title' },
    h('p', { class: 'eyebrow' }, 'Incident Dossier'),
    h('h2', { id: 'dossier-title' }, d.title),
    h('p', { class: 'summary' }, d.summary),
    h('div', { class: 'signal', role: 'group', 'aria-label': 'Initial failing signal' },
      h('div', { class: 'signal-head' },
        h('span', { class: 'signal-dot', 'aria-hidden': 'true' }),
        h('span', { class: 'signal-label' }, 'Initial failing signal'),
        h('span', { class: 'badge kind' }, kindLabel(d.kind))),
      h('p', { class: 'signal-text' }, d.incident.signal),
      h('p', { class: 'signal-sub' },
        h('span', null, h('b', null, 'Expected behavior: '), firstSentence(d.incident.expected)),
        h('span', { class: 'sep', 'aria-hidden': 'true' }, ' · '),
        h('span', null, h('b', null, 'actual behavior: '), firstSentence(d.incident.actual)))),
    h('a', { class: 'jump', href: '#workspace' }, 'Go to the workspace ↓'));
}

/** The first sentence of a paragraph, for the compact signal line. */
function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return m ? m[1] : text;
}

/** The narrative, customer symptom, and expected vs actual panels. */
export function incidentPanels(d: Dossier): HTMLElement[] {
  return [
    h('p', { class: 'narrative' }, d.incident.narrative),
    panel('Customer symptom', h('p', null, d.incident.symptom), { id: 'symptom' }),
    h('div', { class: 'compare' },
      panel('Expected', h('p', null, d.incident.expected), { id: 'expected', cls: 'expected' }),
      panel('Actual', h('p', null, d.incident.actual), { id: 'actual', cls: 'actual' })),
  ];
}
