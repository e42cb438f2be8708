// How the dossier page is laid out and resized. On wide screens the
// evidence desk and the output panel have splitters (sizes remembered) and
// toggles to hide them, and a verdict enlarges the results. On phones the
// desk, the code and the results are three tabs, and a run jumps to the
// results.
import { h } from '../lib/dom';
import { loadPref, savePref } from '../lib/prefs';
import type { OutputPanel } from '../run/output';
import { splitter, type Splitter } from './splitter';

/** The width below which the page is a phone's: one view at a time. */
export const phoneQuery = '(max-width: 900px)';

type View = 'evidence' | 'code' | 'results';

export interface PageParts {
  main: HTMLElement;
  desk: HTMLElement;
  work: HTMLElement;
  workspace: HTMLElement;
  out: OutputPanel;
  /** The explorer's splitter, owned by the workspace. */
  explorer: Splitter;
}

export interface PageLayout {
  /** The pane toggles for the stepper bar (wide screens). */
  toggles: HTMLElement;
  /** The Evidence / Code / Results tabs (phones). */
  viewTabs: HTMLElement;
  /** A run started: phones show its output. */
  runStarted(): void;
  /** A verdict arrived: the results open large, or (phones) come into view. */
  revealResults(): void;
  /** The learner went to a line of code from the results: phones show the Code view. */
  showCode(): void;
  dispose(): void;
}

/** Default height of the output panel: its header and a few lines, so the editor keeps its room. */
const OUTPUT_H = 96;

/** Lays the page out and returns what the page wires to its runs. */
export function pageLayout(p: PageParts): PageLayout {
  const phone = window.matchMedia(phoneQuery);
  const desk = splitter({
    label: 'Resize the evidence desk', between: 'columns', host: p.main, cssVar: '--desk-w', controls: p.desk.id, pref: 'layout.desk',
    initial: 380, min: 280, max: () => Math.max(320, window.innerWidth * 0.5), grows: 'forward',
  });
  const output = splitter({
    label: 'Resize the output panel', between: 'rows', host: p.work, cssVar: '--out-h', controls: p.out.el.id, pref: 'layout.output',
    initial: OUTPUT_H, min: 38, max: () => Math.max(160, p.work.clientHeight - 140), grows: 'backward',
  });
  p.main.insertBefore(desk.el, p.work);
  p.work.insertBefore(output.el, p.out.el);

  let before = loadPref<number>('layout.output-before') ?? OUTPUT_H;
  const large = () => Math.round(p.work.clientHeight * 0.64);
  p.out.onExpand = (on) => {
    if (on) {
      before = output.size();
      savePref('layout.output-before', before);
      output.set(Math.max(large(), before));
    } else output.set(before < large() ? before : OUTPUT_H);
  };

  const toggle = (label: string, s: Splitter, controls: string) => h('button', {
    type: 'button', class: 'btn small ghost pane-toggle', 'aria-controls': controls, 'aria-pressed': 'true',
    title: `Show or hide the ${label.toLowerCase()} pane`, onclick: () => s.toggle(),
  }, label);
  const toggleButtons = [toggle('Evidence', desk, p.desk.id), toggle('Files', p.explorer, 'explorer'), toggle('Output', output, p.out.el.id)];
  const panes = [desk, p.explorer, output];
  const sync = () => {
    toggleButtons.forEach((b, i) => b.setAttribute('aria-pressed', String(!panes[i].collapsed())));
    p.out.setExpanded(output.size() >= large() - 1 && !output.collapsed());
  };
  const toggles = h('div', { class: 'pane-toggles', role: 'group', 'aria-label': 'Panes' }, h('span', { class: 'muted small' }, 'Show'), toggleButtons);
  p.main.addEventListener('paneresize', sync);

  // Phones: one view at a time.
  const views: { key: View; label: string; panel: HTMLElement[] }[] = [
    { key: 'evidence', label: 'Evidence', panel: [p.desk] },
    { key: 'code', label: 'Code', panel: [p.workspace] },
    { key: 'results', label: 'Results', panel: [p.out.el] },
  ];
  let view: View = loadPref<View>('layout.view') ?? 'evidence';
  const tabs = views.map((v) => h('button', {
    type: 'button', role: 'tab', id: `view-tab-${v.key}`, class: 'view-tab', 'aria-controls': v.panel[0].id,
    onclick: () => select(v.key, false),
  }, v.label));
  const viewTabs = h('div', { class: 'view-tabs', role: 'tablist', 'aria-label': 'Dossier views' }, tabs);
  viewTabs.addEventListener('keydown', (e: KeyboardEvent) => {
    const i = views.findIndex((v) => v.key === view);
    const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    select(views[(i + by + views.length) % views.length].key, false);
    tabs[views.findIndex((v) => v.key === view)].focus();
  });
  const select = (key: View, jump: boolean) => {
    view = key;
    savePref('layout.view', key);
    applyView();
    if (jump) viewTabs.scrollIntoView({ block: 'start' });
  };
  const applyView = () => {
    const on = phone.matches;
    for (const v of views) document.body.classList.toggle(`view-${v.key}`, on && v.key === view);
    views.forEach((v, i) => {
      tabs[i].setAttribute('aria-selected', String(v.key === view));
      tabs[i].tabIndex = v.key === view ? 0 : -1;
      for (const el of v.panel) {
        if (on) {
          el.setAttribute('role', 'tabpanel');
          el.setAttribute('aria-labelledby', tabs[i].id);
        } else if (el.getAttribute('role') === 'tabpanel') {
          el.removeAttribute('role');
          el.removeAttribute('aria-labelledby');
        }
      }
    });
  };
  // "Go to the workspace" opens the Code view.
  p.desk.querySelector('a.jump')?.addEventListener('click', (e) => {
    if (!phone.matches) return;
    e.preventDefault();
    select('code', true);
  });
  phone.addEventListener('change', applyView);
  applyView();
  sync();

  return {
    toggles,
    viewTabs,
    runStarted() {
      if (phone.matches) select('results', true);
      else if (output.collapsed()) output.toggle();
    },
    revealResults() {
      if (phone.matches) {
        select('results', true);
        return;
      }
      if (output.collapsed() || output.size() < large()) {
        if (!output.collapsed()) before = output.size();
        output.set(large());
      }
    },
    showCode() {
      if (phone.matches) select('code', true);
    },
    dispose() {
      phone.removeEventListener('change', applyView);
      for (const v of views) document.body.classList.remove(`view-${v.key}`);
    },
  };
}
