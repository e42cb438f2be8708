// The instructor page's table: one row per dossier with its source, lint
// status, validation and preview link, and under it its problems and proofs.
import { h } from '../lib/dom';
import type { InstructorDossier, LintProblem } from '../lib/instructor-types';
import { proofsTable, validationLabel } from './instructor-proofs';

/** Where a problem is: file:line field. */
function place(p: LintProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}${p.field ? ` ${p.field}` : ''}`;
}

function problemItem(p: LintProblem): HTMLElement {
  return h('li', { class: 'lint-problem' },
    h('code', { class: 'where' }, place(p)),
    h('span', { class: 'message' }, p.message),
    p.fix ? h('span', { class: 'fix' }, `Fix: ${p.fix}`) : null);
}

function lintCell(d: InstructorDossier): HTMLElement {
  const n = d.problems.length;
  return h('td', { class: 'lint' }, h('div', { class: 'cell-flex' },
    h('span', { class: `chip ${n ? 'bad' : 'ok'}` }, n ? `${n} problem${n > 1 ? 's' : ''}` : 'Clean'),
    d.stale ? h('span', { class: 'chip warn', title: 'The files on disk are broken; learners get the last good version.' }, 'Serving last good version') : null));
}

function row(d: InstructorDossier, validate: (slug: string) => void): HTMLElement[] {
  const running = d.validation.state === 'running';
  const rows = [h('tr', { class: 'dossier-row', 'data-slug': d.slug },
    h('th', { scope: 'row' }, h('span', { class: 'slug' }, d.slug), d.title ? h('span', { class: 'title' }, d.title) : null),
    h('td', { class: 'dossier-source' }, d.source),
    lintCell(d),
    h('td', { class: 'validation' }, h('div', { class: 'cell-flex' },
      h('span', { class: `state ${d.validation.state}${d.validation.state === 'done' ? (d.validation.ok ? ' ok' : ' bad') : ''}` }, validationLabel(d.validation)),
      h('button', { type: 'button', class: 'btn small secondary validate', disabled: running || !d.served, onclick: () => validate(d.slug) }, running ? 'Running' : 'Validate'))),
    h('td', { class: 'preview' }, d.preview
      ? h('a', { class: 'preview-link', href: d.preview, 'data-link': true }, 'Preview')
      : h('span', { class: 'muted' }, 'Not served')))];
  const details = [
    d.problems.length ? h('ul', { class: 'lint-problems', 'aria-label': `Problems of ${d.slug}` }, d.problems.map(problemItem)) : null,
    proofsTable(d.slug, d.validation),
  ].filter((x): x is HTMLElement => x !== null);
  if (details.length) rows.push(h('tr', { class: 'details-row', 'data-slug': d.slug }, h('td', { colspan: 5 }, details)));
  return rows;
}

/** The table of every dossier; validate starts a validation. */
export function dossierTable(dossiers: InstructorDossier[], validate: (slug: string) => void): HTMLElement {
  return h('table', { class: 'instructor-table', 'aria-label': 'Dossiers' },
    h('thead', null, h('tr', null, ['Dossier', 'Source', 'Lint', 'Validate', 'Preview'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, dossiers.map((d) => row(d, validate))));
}
