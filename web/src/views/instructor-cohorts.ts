// The instructor's cohorts: the form that opens one (a name, its dossiers,
// an optional window for joining) and the list of cohorts with their join
// links.
import { h } from '../lib/dom';
import { instructorApi } from '../lib/instructor-api';
import type { Cohort } from '../lib/instructor-types';

/** The full join link of a cohort. */
export function joinLink(c: Cohort): string {
  return location.origin + c.join_path;
}

/** A datetime-local input's value as an ISO time, or undefined when empty. */
function isoOrNone(input: HTMLInputElement): string | undefined {
  return input.value ? new Date(input.value).toISOString() : undefined;
}

/** The form that opens a cohort over the served dossiers. */
export function cohortForm(slugs: string[], created: (c: Cohort) => void, failed: (err: unknown) => void): HTMLElement {
  const name = h('input', { type: 'text', id: 'cohort-name', name: 'name', required: true, maxlength: 100, placeholder: 'Concurrency lab, group A' });
  const boxes = slugs.map((slug) => h('input', { type: 'checkbox', name: 'dossier', value: slug, id: `cohort-dossier-${slug}` }));
  const opens = h('input', { type: 'datetime-local', id: 'cohort-opens', name: 'opens_at' });
  const closes = h('input', { type: 'datetime-local', id: 'cohort-closes', name: 'closes_at' });
  const submit = h('button', { type: 'submit', class: 'btn primary' }, 'Open cohort');
  return h('form', { class: 'cohort-form', 'aria-label': 'New cohort', onsubmit: (e: Event) => {
    e.preventDefault();
    const dossiers = boxes.filter((b) => b.checked).map((b) => b.value);
    submit.disabled = true;
    instructorApi.createCohort({ name: name.value, dossiers, opens_at: isoOrNone(opens), closes_at: isoOrNone(closes) })
      .then(created, failed).finally(() => { submit.disabled = false; });
  } },
  h('h2', null, 'New cohort'),
  h('label', { for: 'cohort-name' }, 'Name'), name,
  h('fieldset', { class: 'cohort-dossiers' }, h('legend', null, 'Dossiers'),
    boxes.map((b) => h('label', { for: b.id, class: 'check' }, b, h('span', null, b.value)))),
  h('div', { class: 'cohort-window' },
    h('label', { for: 'cohort-opens' }, 'Opens (optional)', opens),
    h('label', { for: 'cohort-closes' }, 'Closes (optional)', closes)),
  submit);
}

/** The list of cohorts, each linking to its page. */
export function cohortList(list: Cohort[]): HTMLElement {
  if (!list.length) return h('p', { class: 'muted' }, 'No cohort yet.');
  return h('ul', { class: 'cohorts', 'aria-label': 'Cohorts' }, list.map((c) =>
    h('li', { class: 'cohort-item', 'data-id': c.id },
      h('a', { class: 'cohort-link', href: `/instructor/cohorts/${encodeURIComponent(c.id)}`, 'data-link': true }, c.name),
      h('span', { class: 'muted small' }, `${c.members} learner${c.members === 1 ? '' : 's'} · ${c.dossiers.join(', ')} · by ${c.created_by}`))));
}
