// The page a cohort's join link opens: the learner gives a display name (no
// password) and is in the cohort; their workspaces stay theirs.
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import type { Invitation } from '../lib/types';
import { brand } from './chrome';

function dossierLinks(inv: Invitation): HTMLElement {
  return h('ul', { class: 'join-dossiers' }, inv.dossiers.map((d) =>
    h('li', null, h('a', { href: `/dossiers/${encodeURIComponent(d.slug)}`, 'data-link': true, class: 'join-dossier' }, d.title || d.slug))));
}

/** Renders the join page of a cohort's code into root. */
export async function joinPage(root: HTMLElement, code: string): Promise<() => void> {
  document.title = 'Join a cohort · racecase';
  const main = h('main', { id: 'main', class: 'catalog join' });
  replace(root, h('header', { class: 'topbar' }, brand()), main);
  const show = (inv: Invitation, error?: string) => {
    const name = h('input', { type: 'text', id: 'display-name', name: 'display_name', required: true, maxlength: 60,
      autocomplete: 'nickname', value: inv.joined_as ?? '' });
    const form = h('form', { class: 'join-form token-form', onsubmit: (e: Event) => {
      e.preventDefault();
      api.join(code, name.value).then(() => api.invitation(code)).then((i) => show(i), (err) => {
        const d = describeError(err);
        show(inv, `${d.title}: ${d.detail}`);
      });
    } },
    h('label', { for: 'display-name' }, 'Your name, as your instructor will see it'), name,
    error ? h('p', { class: 'error-card', role: 'alert' }, error) : null,
    h('button', { type: 'submit', class: 'btn primary', disabled: !inv.open }, inv.joined_as ? 'Change my name' : 'Join'));
    replace(main, h('section', { class: 'join-card' },
      h('p', { class: 'eyebrow' }, 'Cohort'),
      h('h1', { id: 'cohort-title' }, inv.name),
      inv.joined_as
        ? h('p', { class: 'joined', role: 'status' }, `You are in as ${inv.joined_as}. Open a dossier to start; your instructor sees your progress.`)
        : h('p', { class: 'lead' }, inv.open ? 'Give a name to join. No password: this browser is you.' : 'This cohort is not open for joining now.'),
      form,
      h('h2', null, 'Dossiers'), dossierLinks(inv)));
    if (!inv.joined_as) name.focus();
  };
  try {
    show(await api.invitation(code));
  } catch (err) {
    const d = describeError(err);
    replace(main, h('div', { class: 'error-card', role: 'alert' }, h('h1', null, d.title), h('p', null, d.detail),
      h('a', { href: '/', 'data-link': true, class: 'btn secondary' }, 'Back to the catalog')));
  }
  return () => {};
}
