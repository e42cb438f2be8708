// Any learner's workspace as the instructor sees it to help them, read-only:
// who and where they are, the hypothesis they marked, their changes, every
// file, and their latest runs with each test's outcome. Nothing on the page
// can change the workspace; it follows the learner live.
import { h, replace } from '../lib/dom';
import { clock } from '../lib/format';
import { instructorApi } from '../lib/instructor-api';
import type { Inspection } from '../lib/instructor-types';
import type { Run } from '../lib/types';
import { instructorShell } from './instructor-shell';

function diffView(patch: string): HTMLElement {
  if (!patch) return h('p', { class: 'muted' }, 'No change from the original repository yet.');
  return h('pre', { class: 'ro-diff', 'aria-label': 'Changes against the original' }, patch.split('\n').map((line) =>
    h('span', { class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : '' }, line + '\n')));
}

function runItem(r: Run): HTMLElement {
  const when = r.finished_at ? new Date(r.finished_at).toLocaleTimeString() : r.status;
  return h('li', { class: `ro-run ${r.verdict ?? r.status}`, 'data-kind': r.kind, 'data-verdict': r.verdict ?? '' },
    h('div', { class: 'ro-run-head' }, h('strong', null, r.kind === 'submit' ? 'Submission' : 'Check'), ' ',
      h('span', { class: `chip ${r.verdict === 'pass' ? 'ok' : 'bad'}` }, r.verdict ?? r.status), ' ', h('span', { class: 'muted small' }, when)),
    r.message ? h('p', { class: 'small' }, r.message) : null,
    r.tests.length ? h('ul', { class: 'ro-tests' }, r.tests.map((t) =>
      h('li', { class: `ro-test ${t.status}` }, h('span', { class: 'ro-test-status' }, t.status), ' ', t.name,
        t.status !== 'pass' && t.message ? h('span', { class: 'muted small ro-test-message' }, ` — ${t.message}`) : null))) : null);
}

function view(x: Inspection, shown: { path: string }, redraw: () => void): HTMLElement[] {
  const w = x.workspace;
  const who = x.cohorts.map((c) => `${c.display_name} (${c.cohort_name})`).join(', ') || 'a learner in no cohort';
  const steps = w.progress.steps.map((s) => h('li', { class: s.done ? 'done' : '' }, s.title));
  const file = x.files.find((f) => f.path === shown.path) ?? x.files.find((f) => f.changed) ?? x.files[0];
  const pick = w.hypothesis ? (x.workspace.progress.answer?.hypothesis_id === w.hypothesis ? `${w.hypothesis} (the root cause)` : w.hypothesis) : 'none yet';
  return [
    h('section', { class: 'instructor-head ro-head' },
      h('p', { class: 'eyebrow' }, 'Read-only view'),
      h('h1', { id: 'ro-title' }, `${who}: ${w.title || w.dossier}`),
      h('dl', { class: 'figures' },
        h('div', { class: 'figure' }, h('dt', null, 'Time'), h('dd', { class: 'ro-time' }, clock(w.elapsed_seconds))),
        h('div', { class: 'figure' }, h('dt', null, 'Hints revealed'), h('dd', null, String(w.hints.filter((x) => x.revealed).length))),
        h('div', { class: 'figure' }, h('dt', null, 'Hypothesis marked'), h('dd', { class: 'ro-pick' }, pick)),
        h('div', { class: 'figure' }, h('dt', null, 'Solved'), h('dd', { class: 'ro-solved' }, w.progress.solved_at ? new Date(w.progress.solved_at).toLocaleString() : 'not yet'))),
      h('ol', { class: 'ro-steps', 'aria-label': 'Progress' }, steps)),
    h('section', { class: 'class-section', 'aria-labelledby': 'ro-changes' }, h('h2', { id: 'ro-changes' }, 'Changes'), diffView(x.diff.patch)),
    h('section', { class: 'class-section ro-files', 'aria-labelledby': 'ro-files-title' }, h('h2', { id: 'ro-files-title' }, 'Files'),
      h('div', { class: 'ro-file-list', role: 'list' }, x.files.map((f) => h('button', {
        type: 'button', role: 'listitem', class: `btn small ${f === file ? 'secondary' : 'ghost'} ro-file${f.changed ? ' changed' : ''}`, 'data-path': f.path,
        'aria-pressed': f === file ? 'true' : 'false', onclick: () => { shown.path = f.path; redraw(); },
      }, f.path, f.changed ? ' •' : ''))),
      file ? h('pre', { class: 'ro-content', 'aria-label': `Content of ${file.path}`, 'data-path': file.path }, file.content) : null),
    h('section', { class: 'class-section', 'aria-labelledby': 'ro-runs' }, h('h2', { id: 'ro-runs' }, 'Latest runs'),
      x.runs.length ? h('ol', { class: 'ro-run-list' }, x.runs.map(runItem)) : h('p', { class: 'muted' }, 'No run yet.')),
  ];
}

/** Renders the read-only view of workspace id into root. */
export async function inspectPage(root: HTMLElement, id: string): Promise<() => void> {
  return instructorShell(root, 'Learner workspace', (f) => {
    const holder = h('div', { class: 'ro-view', 'aria-busy': 'true' });
    const shown = { path: '' };
    let last: Inspection | null = null;
    const redraw = () => {
      if (last) replace(holder, view(last, shown, redraw));
    };
    f.main.append(holder);
    f.poll(async () => {
      last = await instructorApi.inspect(id);
      holder.setAttribute('aria-busy', 'false');
      redraw();
    });
  });
}
