// The catalog: one card per dossier with its topic, failure class, difficulty,
// estimated time and the learner's progress, the most approachable first; a
// bar to browse by failure class, and a search box that finds dossiers by the
// symptom the learner is facing, showing the phrase that matched.
import { api, catalogQuery, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import { capitalise, kindLabel } from '../lib/format';
import { highlightParts } from '../lib/highlight';
import type { Card, Match } from '../lib/types';
import { brand } from './chrome';
import { failureClassFilter } from './failure-class-filter';

/** How long typing pauses before the search runs. */
const typingPauseMs = 200;

/** What the catalog calls each kind of matched phrase. */
const matchLabels: Record<Match['kind'], string> = {
  title: 'Title',
  summary: 'Summary',
  signal: 'Failing signal',
  symptom: 'Symptom',
  error: 'Error as seen',
  variant_phrasing: 'Also reported as',
};

function progressOf(c: Card): HTMLElement {
  const p = c.progress;
  if (!p) return h('div', { class: 'card-progress none' }, h('span', null, 'Not started'));
  const pct = Math.round((100 * p.steps_done) / Math.max(1, p.steps));
  return h('div', { class: `card-progress ${p.solved ? 'solved' : ''}` },
    h('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': p.steps, 'aria-valuenow': p.steps_done, 'aria-label': 'Your progress' },
      h('span', { class: 'fill', style: `width:${pct}%` })),
    h('span', null, p.solved ? 'Solved' : `${p.steps_done} of ${p.steps} steps`));
}

/** text with the words a search matched marked. */
function marked(text: string, words: string[]): (HTMLElement | string)[] {
  return highlightParts(text, words).map((p) => (p.mark ? h('mark', null, p.text) : p.text));
}

/** The phrase a search matched, its matching words marked. */
function matchOf(m: Match): HTMLElement {
  return h('p', { class: 'card-match', 'data-kind': m.kind },
    h('span', { class: 'match-kind' }, `${matchLabels[m.kind] ?? 'Matched'}: `),
    h('q', { class: 'match-text' }, marked(m.text, m.words)));
}

/** Whether the match is a phrase of text itself (the title, a sentence of the summary). */
function matchIn(text: string, m: Match | undefined, kind: Match['kind']): m is Match {
  return m?.kind === kind && text.includes(m.text);
}

/** text, with the phrase m marked in place when it is one of its own. */
function markedIn(text: string, m: Match | undefined, kind: Match['kind']): (HTMLElement | string)[] {
  if (!matchIn(text, m, kind)) return [text];
  const at = text.indexOf(m.text);
  return [text.slice(0, at), ...marked(m.text, m.words), text.slice(at + m.text.length)];
}

function card(c: Card): HTMLElement {
  const inPlace = matchIn(c.title, c.match, 'title') || matchIn(c.summary, c.match, 'summary');
  return h('li', { class: 'card', 'data-slug': c.slug },
    h('a', { class: 'card-link', href: `/dossiers/${encodeURIComponent(c.slug)}`, 'data-link': true },
      h('div', { class: 'card-tags' },
        h('span', { class: 'chip topic' }, c.topic),
        h('span', { class: 'chip failure-class', 'data-class': c.failure_class.id }, c.failure_class.label),
        h('span', { class: `chip diff-${c.difficulty}` }, capitalise(c.difficulty)),
        h('span', { class: 'chip time' }, `${c.estimate_minutes} min`)),
      h('p', { class: 'card-kind' }, kindLabel(c.kind)),
      h('h2', { class: 'card-title' }, markedIn(c.title, c.match, 'title')),
      c.match && !inPlace ? matchOf(c.match) : null,
      h('p', { class: 'card-summary' }, markedIn(c.summary, c.match, 'summary')),
      h('div', { class: 'card-foot' },
        progressOf(c),
        h('span', { class: 'card-cta', 'aria-hidden': 'true' }, c.progress ? (c.progress.solved ? 'Review →' : 'Continue →') : 'Open dossier →'))));
}

/** The search form; onSearch runs on submit and when typing pauses. */
function searchForm(initial: string, onSearch: (q: string) => void): HTMLElement {
  const input = h('input', {
    id: 'catalog-q', type: 'search', name: 'q', value: initial, autocomplete: 'off', spellcheck: 'false',
    placeholder: 'e.g. visibility timeout expired mid-batch', 'aria-describedby': 'catalog-q-help',
  });
  let pause: number | undefined;
  input.addEventListener('input', () => {
    window.clearTimeout(pause);
    pause = window.setTimeout(() => onSearch(input.value), typingPauseMs);
  });
  const el = h('form', { class: 'catalog-search', role: 'search', 'aria-label': 'Search the dossiers' },
    h('label', { for: 'catalog-q', class: 'search-label' }, 'Find an incident by symptom'),
    h('div', { class: 'search-row' }, input, h('button', { type: 'submit', class: 'btn primary' }, 'Search')),
    h('p', { id: 'catalog-q-help', class: 'search-help' }, 'Paste an error line or say what you see, in your words; typos are fine.'));
  el.addEventListener('submit', (e) => {
    e.preventDefault();
    window.clearTimeout(pause);
    onSearch(input.value);
  });
  return el;
}

/** Keeps the search and the class in the address, so they can be reloaded and shared. */
function rememberQuery(q: string, failureClass: string): void {
  const url = `/${catalogQuery(q, failureClass)}`;
  if (location.pathname + location.search !== url) history.replaceState(null, '', url);
}

/** What the status line says about the cards shown. */
function statusOf(count: number, q: string, classLabel: string): string {
  const inClass = classLabel ? ` in ${classLabel}` : '';
  if (q) return `${count === 1 ? '1 dossier matches' : `${count} dossiers match`} “${q}”${inClass}, best match first.`;
  if (classLabel) return `${count === 1 ? '1 dossier' : `${count} dossiers`}${inClass}, the most approachable first.`;
  return '';
}

/** Renders the catalog page into root. */
export async function catalogPage(root: HTMLElement): Promise<() => void> {
  document.title = 'racecase: incident dossiers';
  const list = h('ul', { class: 'cards', 'aria-label': 'Dossiers', 'aria-busy': 'true' },
    [1, 2, 3].map(() => h('li', { class: 'card skeleton', 'aria-hidden': 'true' })));
  const status = h('p', { class: 'search-status', role: 'status' });
  const params = new URLSearchParams(location.search);
  let query = params.get('q') ?? '';
  let failureClass = params.get('class') ?? '';
  let latest = 0;
  const show = async () => {
    const q = query.trim();
    const mine = ++latest;
    rememberQuery(q, failureClass);
    list.setAttribute('aria-busy', 'true');
    try {
      const cards = q ? await api.search(q, failureClass) : await api.cards(failureClass);
      if (mine !== latest) return;
      replace(list, cards.length ? cards.map(card)
        : h('li', { class: 'empty' }, q ? 'No dossier matches. Try fewer words, or the error text as it appears in your logs.' : 'No dossier is served yet.'));
      status.textContent = statusOf(cards.length, q, filter.labelOf(failureClass));
    } catch (err) {
      if (mine !== latest) return;
      const e = describeError(err);
      replace(list, h('li', { class: 'error-card', role: 'alert' }, h('strong', null, e.title), h('p', null, e.detail)));
    } finally {
      if (mine === latest) list.setAttribute('aria-busy', 'false');
    }
  };
  const filter = failureClassFilter((id) => {
    failureClass = id;
    void show();
  });
  const search = searchForm(query, (q) => {
    query = q;
    void show();
  });
  replace(root,
    h('header', { class: 'topbar' }, brand(), h('span', { class: 'spacer' }),
      h('a', { class: 'top-link', href: '/playbooks', 'data-link': true }, 'Your playbooks')),
    h('main', { id: 'main', class: 'catalog' },
      h('section', { class: 'catalog-hero' },
        h('p', { class: 'eyebrow' }, 'Incident dossiers'),
        h('h1', null, 'Debug the incidents that only happen under concurrency'),
        h('p', { class: 'lead' }, 'Each dossier is a production incident with its evidence and the small repository that caused it. Reproduce the bug, fix it in the browser, and submit: hidden tests explore every interleaving of your code. Solve one and keep its on-call playbook.')),
      search,
      filter.el,
      status,
      list));
  // The bar lists every class served, whatever the search: it is filled once.
  // Without it the catalog still works; show() reports what failed.
  await api.cards().then((cards) => filter.fill(cards, failureClass), () => {});
  await show();
  return () => {};
}
