// The investigation guide: reproduction steps, the focus question with the
// Focus Mode switch, start files, likely area, investigation path and repo
// scale.
import { h, panel } from '../lib/dom';
import type { Dossier } from '../lib/types';

type Open = (path: string) => void;

function fileList(paths: string[], open: Open, cls: string): HTMLElement {
  return h('ul', { class: `file-list ${cls}` }, paths.map((p) => h('li', null,
    h('button', { type: 'button', class: 'file-link', title: `Open ${p}`, onclick: () => open(p) }, p))));
}

/** Reproduction steps. */
export function reproductionPanel(d: Dossier): HTMLElement {
  return panel('Reproduction Steps', h('ol', { class: 'steps-list' }, d.reproduction.map((r) => h('li', null, r))), { id: 'reproduction' });
}

/** The focus question, start files and the Focus Mode toggle. */
export function focusPanel(d: Dossier, open: Open, toggleFocus: () => void): HTMLElement {
  return h('section', { class: 'panel focus-panel', id: 'focus', 'aria-labelledby': 'focus-title' },
    h('header', { class: 'panel-head' },
      h('h3', { id: 'focus-title' }, 'Focus Mode'),
      h('button', { type: 'button', class: 'btn small ghost focus-toggle', 'aria-pressed': 'false', onclick: toggleFocus }, 'Enter Focus Mode')),
    h('p', { class: 'focus-question' }, d.focus_question),
    h('div', { class: 'start-files' },
      h('h4', null, 'Start'),
      fileList(d.start_files, open, 'start')));
}

/** Likely area, investigation path and repo scale. */
export function scopePanels(d: Dossier, open: Open): HTMLElement[] {
  const rs = d.repo_scale;
  return [
    panel('Likely area', fileList(d.likely_area, open, 'likely'), { id: 'likely-area' }),
    panel('Investigation path', h('ol', { class: 'path' }, d.investigation.map((step, i) => h('li', null,
      h('span', { class: 'path-n', 'aria-hidden': 'true' }, String(i + 1)), h('span', null, step)))), { id: 'investigation' }),
    panel('Repo scale', h('ul', { class: 'scale' },
      h('li', null, h('strong', null, String(rs.meaningful_files)), ' meaningful files'),
      h('li', null, rs.areas),
      h('li', null, rs.fix_scope)), { id: 'repo-scale' }),
  ];
}
