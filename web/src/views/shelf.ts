// The learner's shelf: the on-call playbook of every dossier they solved, on
// one page, with a contents list and "Save all playbooks" as one Markdown file.
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import type { Playbook } from '../lib/types';
import { saveButton } from '../playbook/save';
import { playbookAnchor, playbookView } from '../playbook/view';
import { brand } from './chrome';

/** The shelf with at least one playbook. */
function shelfOf(shelf: Playbook[]): HTMLElement[] {
  return [
    h('div', { class: 'shelf-actions' },
      saveButton('Save all playbooks', 'racecase-playbooks.md', api.shelfMarkdown, 'save-shelf')),
    h('nav', { class: 'shelf-contents', 'aria-label': 'Playbooks on this shelf' },
      h('ol', null, shelf.map((pb) => h('li', null, h('a', { href: `#${playbookAnchor(pb.slug)}` }, pb.title))))),
    h('div', { class: 'shelf-list' }, shelf.map((pb) => h('div', { class: 'shelf-item' },
      playbookView(pb, { level: 3, titled: true }),
      h('p', { class: 'shelf-item-foot' },
        saveButton('Save this playbook', `${pb.slug}-playbook.md`, () => api.playbookMarkdown(pb.slug)), ' ',
        h('a', { href: `/dossiers/${encodeURIComponent(pb.slug)}`, 'data-link': true }, 'Back to the dossier'))))),
  ];
}

/** What the shelf says before the learner has solved anything. */
function emptyShelf(): HTMLElement {
  return h('div', { class: 'shelf-empty' },
    h('p', null, 'No playbook yet. Solve a dossier: its playbook opens when a submission passes the hidden tests, and stays here.'),
    h('a', { href: '/', 'data-link': true, class: 'btn primary' }, 'Pick a dossier'));
}

/** Renders the shelf page into root. */
export async function shelfPage(root: HTMLElement): Promise<() => void> {
  document.title = 'Your playbooks · racecase';
  const body = h('div', { class: 'shelf-body', 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading your playbooks…'));
  replace(root,
    h('header', { class: 'topbar' }, brand(), h('span', { class: 'spacer' }),
      h('a', { class: 'top-link', href: '/', 'data-link': true }, 'Catalog')),
    h('main', { id: 'main', class: 'catalog shelf-page' },
      h('section', { class: 'catalog-hero' },
        h('p', { class: 'eyebrow' }, 'Your shelf'),
        h('h1', null, 'Your on-call playbooks'),
        h('p', { class: 'lead' }, 'The playbook of every incident you solved: what it looks like, what to do, what to expect, and what it is not. Save them where you will look at 3 a.m.')),
      body));
  try {
    const shelf = await api.playbooks();
    replace(body, shelf.length ? shelfOf(shelf) : emptyShelf());
  } catch (err) {
    const e = describeError(err);
    replace(body, h('div', { class: 'error-card', role: 'alert' }, h('strong', null, e.title), h('p', null, e.detail)));
  }
  body.setAttribute('aria-busy', 'false');
  return () => {};
}
