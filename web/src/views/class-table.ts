// A cohort's progress table: one row per learner and dossier, sortable by
// any column (the header buttons), filtered by text and status; each row
// opens the learner's workspace read-only.
import { arrange, type ClassColumn, type ClassView } from '../lib/class-rows';
import { h } from '../lib/dom';
import { clock } from '../lib/format';
import type { ClassRow } from '../lib/instructor-types';

const columns: [ClassColumn, string][] = [
  ['learner', 'Learner'], ['dossier', 'Dossier'], ['step', 'Step'], ['time', 'Time'], ['hints', 'Hints'],
  ['checks', 'Checks'], ['submissions', 'Submissions'], ['failing', 'Last failing property'], ['solved', 'Solved'],
];

function cells(r: ClassRow): HTMLElement[] {
  const label = (c: ClassColumn) => columns.find(([k]) => k === c)![1];
  const td = (c: ClassColumn, ...kids: (HTMLElement | string)[]) => h('td', { class: `col-${c}`, 'data-label': label(c) }, ...kids);
  return [
    h('th', { scope: 'row', class: 'col-learner', 'data-label': 'Learner' }, r.display_name),
    td('dossier', r.dossier_title || r.dossier),
    td('step', h('span', { class: `step-chip s${r.step}` }, `${r.step}/4`), ' ', r.step_title,
      r.running ? h('span', { class: 'chip busy running' }, r.running === 'submit' ? 'submitting' : 'checking') : ''),
    td('time', r.workspace_id ? clock(r.elapsed_seconds) : '–'),
    td('hints', String(r.hints_revealed)),
    td('checks', String(r.checks)),
    td('submissions', String(r.submissions)),
    td('failing', r.last_failing_property ? h('code', null, r.last_failing_property) : ''),
    td('solved', r.solved_at ? new Date(r.solved_at).toLocaleTimeString() : ''),
  ];
}

/** The table of the rows as v arranges them; sort is called with a column header's column. */
export function classTable(rows: ClassRow[], v: ClassView, sort: (c: ClassColumn) => void): HTMLElement {
  const shown = arrange(rows, v);
  return h('table', { class: 'instructor-table class-table stacking', 'aria-label': 'Learner progress' },
    h('thead', null, h('tr', null, [...columns.map(([c, title]) =>
      h('th', { scope: 'col', 'aria-sort': v.column === c ? (v.descending ? 'descending' : 'ascending') : 'none' },
        h('button', { type: 'button', class: 'sort', 'data-column': c, onclick: () => sort(c) }, title,
          v.column === c ? h('span', { 'aria-hidden': 'true' }, v.descending ? ' ↓' : ' ↑') : ''))),
    h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Workspace'))])),
    h('tbody', null, shown.map((r) => h('tr', { class: `class-row${r.solved_at ? ' solved' : ''}`, 'data-learner': r.display_name, 'data-dossier': r.dossier },
      ...cells(r),
      h('td', { class: 'col-open' }, r.workspace_id
        ? h('a', { class: 'btn small ghost open-workspace', href: `/instructor/workspaces/${encodeURIComponent(r.workspace_id)}`, 'data-link': true,
          'aria-label': `View ${r.display_name}'s workspace of ${r.dossier}` }, 'View')
        : '')))),
    shown.length ? null : h('caption', { class: 'muted' }, rows.length ? 'No learner matches.' : 'Nobody has joined yet: share the join link.'));
}
