// The catalog: one card per dossier with its topic, difficulty, estimated
// time and the learner's progress.
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import { capitalise, kindLabel } from '../lib/format';
import type { Card } from '../lib/types';
import { brand } from './chrome';

function progressOf(c: Card): HTMLElement {
  const p = c.progress;
  if (!p) return h('div', { class: 'card-progress none' }, h('span', null, 'Not started'));
  const pct = Math.round((100 * p.steps_done) / Math.max(1, p.steps));
  return h('div', { class: `card-progress ${p.solved ? 'solved' : ''}` },
    h('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': p.steps, 'aria-valuenow': p.steps_done, 'aria-label': 'Your progress' },
      h('span', { class: 'fill', style: `width:${pct}%` })),
    h('span', null, p.solved ? 'Solved' : `${p.steps_done} of ${p.steps} steps`));
}

function card(c: Card): HTMLElement {
  return h('li', { class: 'card', 'data-slug': c.slug },
    h('a', { class: 'card-link', href: `/dossiers/${encodeURIComponent(c.slug)}`, 'data-link': true },
      h('div', { class: 'card-tags' },
        h('span', { class: 'chip topic' }, c.topic),
        h('span', { class: `chip diff-${c.difficulty}` }, capitalise(c.difficulty)),
        h('span', { class: 'chip time' }, `${c.estimate_minutes} min`)),
      h('p', { class: 'card-kind' }, kindLabel(c.kind)),
      h('h2', { class: 'card-title' }, c.title),
      h('p', { class: 'card-summary' }, c.summary),
      h('div', { class: 'card-foot' },
        progressOf(c),
        h('span', { class: 'card-cta', 'aria-hidden': 'true' }, c.progress ? (c.progress.solved ? 'Review →' : 'Continue →') : 'Open dossier →'))));
}

/** Renders the catalog page into root. */
export async function catalogPage(root: HTMLElement): Promise<() => void> {
  document.title = 'racecase: incident dossiers';
  const list = h('ul', { class: 'cards', 'aria-label': 'Dossiers', 'aria-busy': 'true' },
    [1, 2, 3].map(() => h('li', { class: 'card skeleton', 'aria-hidden': 'true' })));
  replace(root,
    h('header', { class: 'topbar' }, brand(), h('span', { class: 'spacer' })),
    h('main', { id: 'main', class: 'catalog' },
      h('section', { class: 'catalog-hero' },
        h('p', { class: 'eyebrow' }, 'Incident dossiers'),
        h('h1', null, 'Debug the incidents that only happen under concurrency'),
        h('p', { class: 'lead' }, 'Each dossier is a production incident with its evidence and the small repository that caused it. Reproduce the bug, fix it in the browser, and submit: hidden tests explore every interleaving of your code.')),
      list));
  try {
    const cards = await api.cards();
    list.setAttribute('aria-busy', 'false');
    replace(list, cards.length ? cards.map(card) : h('li', { class: 'empty' }, 'No dossier is served yet.'));
  } catch (err) {
    const e = describeError(err);
    list.setAttribute('aria-busy', 'false');
    replace(list, h('li', { class: 'error-card', role: 'alert' }, h('strong', null, e.title), h('p', null, e.detail)));
  }
  return () => {};
}
