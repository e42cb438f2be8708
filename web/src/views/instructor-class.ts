// A cohort's page: its join link, the live progress table (sort, filter,
// CSV export) and where its dossiers trip people up.
import type { ClassColumn, ClassStatus, ClassView } from '../lib/class-rows';
import { h, replace } from '../lib/dom';
import { instructorApi } from '../lib/instructor-api';
import type { ClassTable } from '../lib/instructor-types';
import { classTable } from './class-table';
import { joinLink } from './instructor-cohorts';
import { instructorShell } from './instructor-shell';
import { insightsView } from './insights-view';

/** Saves text as a file the browser downloads. */
function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The line under the cohort's name: members, creator, window. */
function lead(t: ClassTable): string {
  const window_ = [t.cohort.opens_at ? `opens ${new Date(t.cohort.opens_at).toLocaleString()}` : '',
    t.cohort.closes_at ? `closes ${new Date(t.cohort.closes_at).toLocaleString()}` : ''].filter(Boolean).join(', ');
  return `${t.cohort.members} learner${t.cohort.members === 1 ? '' : 's'} · created by ${t.cohort.created_by}${window_ ? ` · ${window_}` : ''}`;
}

function head(t: ClassTable, leadLine: HTMLElement): HTMLElement {
  const link = joinLink(t.cohort);
  const input = h('input', { type: 'text', readonly: true, value: link, id: 'join-link', 'aria-label': 'Join link' });
  const copied = h('span', { class: 'muted small', role: 'status' });
  return h('section', { class: 'instructor-head cohort-head' },
    h('h1', { id: 'cohort-name' }, t.cohort.name),
    leadLine,
    h('div', { class: 'join-box' }, h('label', { for: 'join-link' }, 'Join link (learners give a display name, no password)'),
      h('div', { class: 'join-row' }, input,
        h('button', { type: 'button', class: 'btn small secondary', onclick: () => {
          input.select();
          navigator.clipboard?.writeText(link).then(() => { copied.textContent = 'Copied'; }, () => { copied.textContent = 'Select and copy the link'; });
        } }, 'Copy'), copied)));
}

/** Renders the page of cohort id into root. */
export async function cohortPage(root: HTMLElement, id: string): Promise<() => void> {
  return instructorShell(root, 'Cohort', (f) => {
    const view: ClassView = { text: '', status: 'all', column: 'learner', descending: false };
    let last: ClassTable | null = null;
    const headHolder = h('div', null);
    const leadLine = h('p', { class: 'lead cohort-lead' });
    const tableHolder = h('div', { class: 'class-holder', 'aria-busy': 'true' });
    const insightsHolder = h('div', { class: 'insights-holder', 'aria-busy': 'true' });
    const updated = h('span', { class: 'muted small updated' });
    const draw = () => {
      if (last) replace(tableHolder, classTable(last.rows, view, sort));
    };
    const sort = (c: ClassColumn) => {
      view.descending = view.column === c ? !view.descending : false;
      view.column = c;
      draw();
    };
    const filter = h('input', { type: 'search', id: 'class-filter', placeholder: 'Learner, dossier or property', oninput: () => {
      view.text = filter.value;
      draw();
    } });
    const status = h('select', { id: 'class-status', onchange: () => {
      view.status = status.value as ClassStatus;
      draw();
    } }, [['all', 'Everyone'], ['stuck', 'Not solved yet'], ['solved', 'Solved'], ['running', 'Running now']]
      .map(([v, t]) => h('option', { value: v }, t)));
    const csv = h('button', { type: 'button', class: 'btn small secondary', id: 'export-csv', onclick: () => {
      instructorApi.classCSV(id).then((text) => download(`${id}-progress.csv`, 'text/csv', text), (err) => f.say(err));
    } }, 'Export CSV');
    f.main.append(headHolder,
      h('section', { class: 'class-section', 'aria-labelledby': 'progress-title' },
        h('div', { class: 'class-bar' }, h('h2', { id: 'progress-title' }, 'Learner progress'), updated),
        h('div', { class: 'class-controls' },
          h('label', { for: 'class-filter' }, 'Filter'), filter,
          h('label', { for: 'class-status' }, 'Show'), status, csv),
        tableHolder),
      h('section', { class: 'class-section', 'aria-labelledby': 'insights-title' },
        h('h2', { id: 'insights-title' }, 'Where the dossiers trip people up'), insightsHolder));
    f.poll(async () => {
      const [t, insights] = await Promise.all([instructorApi.classTable(id), instructorApi.insights(id)]);
      if (!last) replace(headHolder, head(t, leadLine));
      leadLine.textContent = lead(t);
      last = t;
      tableHolder.setAttribute('aria-busy', 'false');
      insightsHolder.setAttribute('aria-busy', 'false');
      draw();
      replace(insightsHolder, insightsView(insights));
      updated.textContent = `Live · updated ${new Date(t.at).toLocaleTimeString()}`;
    });
  });
}
