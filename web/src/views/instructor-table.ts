// The instructor page's table: one row per dossier with its source, lint
// status, validation (with its progress) and preview button, and under it
// its problems, proofs and, when opened, its validation history.
import { h } from '../lib/dom';
import type { InstructorDossier, LintProblem, Validation } from '../lib/instructor-types';
import { historyList, proofsTable, validationLabel } from './instructor-proofs';

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
  return h('td', { class: 'lint', 'data-label': 'Lint' }, h('div', { class: 'cell-flex' },
    h('span', { class: `chip ${n ? 'bad' : 'ok'}` }, n ? `${n} problem${n > 1 ? 's' : ''}` : 'Clean'),
    d.stale ? h('span', { class: 'chip warn', title: 'The files on disk are broken; learners get the last good version.' }, 'Serving last good version') : null));
}

/** What the dossier table does on a click, and the histories shown. */
export interface DossierActions {
  validate(slug: string): void;
  preview(slug: string): void;
  toggleHistory(slug: string): void;
  /** The validation history of each dossier whose history is open. */
  history: Map<string, Validation[]>;
}

function row(d: InstructorDossier, act: DossierActions): HTMLElement[] {
  const running = d.validation.state === 'running';
  const shown = act.history.get(d.slug);
  const rows = [h('tr', { class: 'dossier-row', 'data-slug': d.slug },
    h('th', { scope: 'row', 'data-label': 'Dossier' }, h('span', { class: 'slug' }, d.slug), d.title ? h('span', { class: 'title' }, d.title) : null),
    h('td', { class: 'dossier-source', 'data-label': 'Source' }, d.source),
    lintCell(d),
    h('td', { class: 'validation', 'data-label': 'Validate' }, h('div', { class: 'cell-flex' },
      h('span', { class: `state ${d.validation.state}${d.validation.state === 'done' ? (d.validation.ok ? ' ok' : ' bad') : ''}` }, validationLabel(d.validation)),
      running ? h('progress', { class: 'validate-progress', max: Math.max(d.validation.runs_total, 1), value: d.validation.runs_done,
        'aria-label': `Validation of ${d.slug}` }) : null,
      h('button', { type: 'button', class: 'btn small secondary validate', disabled: running || !d.served, onclick: () => act.validate(d.slug) }, running ? 'Running' : 'Validate'),
      h('button', { type: 'button', class: 'btn small ghost history-toggle', 'aria-expanded': shown ? 'true' : 'false', onclick: () => act.toggleHistory(d.slug) }, 'History'))),
    h('td', { class: 'preview', 'data-label': 'Preview' }, d.preview
      ? h('button', { type: 'button', class: 'btn small secondary preview-link', onclick: () => act.preview(d.slug) }, 'Preview')
      : h('span', { class: 'muted' }, 'Not served')))];
  const details = [
    d.problems.length ? h('ul', { class: 'lint-problems', 'aria-label': `Problems of ${d.slug}` }, d.problems.map(problemItem)) : null,
    proofsTable(d.slug, d.validation),
    shown ? historyList(d.slug, shown) : null,
  ].filter((x): x is HTMLElement => x !== null);
  if (details.length) rows.push(h('tr', { class: 'details-row', 'data-slug': d.slug }, h('td', { colspan: 5 }, details)));
  return rows;
}

/** The table of every dossier. */
export function dossierTable(dossiers: InstructorDossier[], act: DossierActions): HTMLElement {
  return h('table', { class: 'instructor-table stacking', 'aria-label': 'Dossiers' },
    h('thead', null, h('tr', null, ['Dossier', 'Source', 'Lint', 'Validate', 'Preview'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, dossiers.map((d) => row(d, act))));
}
