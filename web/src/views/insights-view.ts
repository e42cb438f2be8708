// Where each dossier trips learners up: solve rate, median time and hints
// to solve, the hidden tests that failed most, how often failing
// submissions look like each decoy, and hypothesis picks against the root
// cause.
import { h } from '../lib/dom';
import { clock } from '../lib/format';
import type { Insight } from '../lib/instructor-types';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** A labelled bar: a share of a whole. */
function bar(label: HTMLElement | string, count: number, share: number, cls = ''): HTMLElement {
  return h('li', { class: `bar-row ${cls}` },
    h('span', { class: 'bar-label' }, label),
    h('span', { class: 'bar', 'aria-hidden': 'true' }, h('span', { class: 'bar-fill', style: `width: ${Math.round(share * 100)}%` })),
    h('span', { class: 'bar-count' }, String(count)));
}

function figures(i: Insight): HTMLElement {
  const fig = (name: string, value: string, cls: string) => h('div', { class: `figure ${cls}` }, h('dt', null, name), h('dd', null, value));
  return h('dl', { class: 'figures' },
    fig('Solve rate', i.learners ? `${pct(i.solve_rate)} (${i.solved} of ${i.learners})` : 'nobody yet', 'solve-rate'),
    fig('Median time to solve', i.median_seconds_to_solve !== undefined ? clock(i.median_seconds_to_solve) : '–', 'median-time'),
    fig('Median hints before solving', i.median_hints_before_solving !== undefined ? String(i.median_hints_before_solving) : '–', 'median-hints'),
    fig('Submissions', `${i.submissions} (${i.failing_submissions} failing)`, 'submissions'));
}

/** One dossier's insight card. */
function card(i: Insight): HTMLElement {
  const most = Math.max(1, ...i.failed_properties.map((p) => p.submissions));
  const picked = Math.max(1, ...i.hypotheses.map((x) => x.picks));
  return h('article', { class: 'insight', 'data-dossier': i.dossier, 'aria-labelledby': `insight-${i.dossier}` },
    h('h3', { id: `insight-${i.dossier}` }, i.title || i.dossier),
    figures(i),
    h('section', { class: 'failed-properties' }, h('h4', null, 'Properties that failed most'),
      i.failed_properties.length
        ? h('ol', { class: 'bars' }, i.failed_properties.map((p) => bar(h('code', null, p.property), p.submissions, p.submissions / most)))
        : h('p', { class: 'muted small' }, 'No failing submission yet.')),
    h('section', { class: 'decoy-resemblance' }, h('h4', null, 'Failing submissions that look like a decoy'),
      i.decoys.length
        ? h('ol', { class: 'bars' }, i.decoys.map((d) => bar(h('span', { title: d.looks_like }, d.decoy), d.submissions, d.share, 'decoy')))
        : h('p', { class: 'muted small' }, 'This dossier names no decoy in its wrong turns.')),
    h('section', { class: 'hypothesis-picks' }, h('h4', null, 'Hypothesis picks'),
      h('ol', { class: 'bars' }, i.hypotheses.map((x) => bar(
        h('span', null, x.title, x.root_cause ? h('span', { class: 'badge ok' }, 'Root cause') : null),
        x.picks, x.picks / picked, x.root_cause ? 'root-cause' : ''))),
      h('p', { class: 'muted small' }, `${i.unpicked} learner${i.unpicked === 1 ? '' : 's'} marked none.`)));
}

/** Every dossier's insight card. */
export function insightsView(list: Insight[]): HTMLElement {
  return h('div', { class: 'insights' }, list.map(card));
}
